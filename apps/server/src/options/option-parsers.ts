import { UsageError } from "./usage-error.ts";

/** A text option's value, as given. */
export const text = (value: string): string => value;

/** A whole number, in digits only: no sign, no exponent, no unit. */
export function wholeNumber(value: string, flag: string): number {
  if (!/^\d+$/.test(value)) {
    throw new UsageError(`--${flag} takes a whole number, not '${value}'.`);
  }
  return Number(value);
}

/** Whole numbers separated by commas (`60000,300000`), each read as {@link wholeNumber}. */
export const wholeNumbers = (value: string, flag: string): number[] =>
  value.split(",").map((item) => wholeNumber(item.trim(), flag));
