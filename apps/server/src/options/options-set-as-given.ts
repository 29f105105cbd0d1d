import type { ServerLimits, ServerOptions } from "../options.ts";
import type { CommandLineValues } from "./option-table.ts";
import { optionEntries } from "./option-table.ts";

const LIMIT = "limits.";

/**
 * The `startServer` options that command-line options set as they were given (each option's `sets`); the CLI adds
 * those it combines itself. That each option's value fits the property it sets is proven by option-table.test.ts.
 */
export function optionsSetAsGiven(values: CommandLineValues): ServerOptions {
  const options: Record<string, unknown> = {};
  const limits: Record<string, unknown> = {};
  for (const [name, option] of optionEntries()) {
    const value = values[name as keyof CommandLineValues];
    if (option.sets === undefined || value === undefined) {
      continue;
    }
    if (option.sets.startsWith(LIMIT)) {
      limits[option.sets.slice(LIMIT.length)] = value;
    } else {
      options[option.sets] = value;
    }
  }
  return { ...(options as ServerOptions), limits: limits as Partial<ServerLimits> };
}
