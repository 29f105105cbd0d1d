export type { DeliveredMessage } from "./maildir.ts";
export { type Relay, type StartRelayOptions, startRelay } from "./relay.ts";
export { type SwaksResult, swaks } from "./swaks.ts";
