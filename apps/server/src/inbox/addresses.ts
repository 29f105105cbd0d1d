import type { AddressList } from "@pigeonhole/inbox-types";

/** The default domain of inbox addresses. */
export { DEFAULT_DOMAIN } from "../options/defaults.ts";

/** An address list as the API takes it (one address or a list) as a list. */
export const toAddressList = (value: AddressList | undefined): string[] =>
  value === undefined ? [] : typeof value === "string" ? [value] : [...value];
