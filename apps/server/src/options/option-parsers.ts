import { heloNameProblem } from "../mail/outbound/helo-name.ts";
import { UsageError } from "./usage-error.ts";

// Each parser names, in its error, where the text came from: the flag (`--inbox-port`) or its variable.

/** A text option's value, as given. */
export const text = (value: string): string => value;

/** A whole number, in digits only: no sign, no exponent, no unit. */
export function wholeNumber(value: string, source: string): number {
  if (!/^\d+$/.test(value)) {
    throw new UsageError(`${source} takes a whole number, not '${value}'.`);
  }
  return Number(value);
}

/** Whole numbers separated by commas (`60000,300000`), each read as {@link wholeNumber}. */
export const wholeNumbers = (value: string, source: string): number[] =>
  value.split(",").map((item) => wholeNumber(item.trim(), source));

/** The host name the server greets an SMTP relay with (`mail.example.com`, or an address literal `[192.0.2.1]`). */
export function heloName(value: string, source: string): string {
  const problem = heloNameProblem(value);
  if (problem !== null) {
    throw new UsageError(`${source}: ${problem}`);
  }
  return value;
}
