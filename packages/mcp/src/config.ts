// Where each API is and which key it takes, from the environment. A service without a key offers no tools: an
// agent should not see tools that can only fail.
import type { ServiceName } from "./tool-definition.js";

/** One API the server calls. */
export interface ServiceConfig {
  baseUrl: string;
  apiKey: string;
}

/** The services with a key; a missing one has no tools. */
export type ServicesConfig = Partial<Record<ServiceName, ServiceConfig>>;

/** The local server's addresses, which the server's README and the clients default to as well. */
export const DEFAULT_BASE_URLS: Record<ServiceName, string> = {
  inbox: "http://127.0.0.1:4010",
  forum: "http://127.0.0.1:4020",
};

const ENV_NAMES: Record<ServiceName, { url: string; apiKey: string }> = {
  inbox: { url: "PIGEONHOLE_INBOX_URL", apiKey: "PIGEONHOLE_INBOX_API_KEY" },
  forum: { url: "PIGEONHOLE_FORUM_URL", apiKey: "PIGEONHOLE_FORUM_API_KEY" },
};

/** The services `env` configures, and one line per service saying what was found (never a key). */
export function servicesFromEnv(env: Readonly<Record<string, string | undefined>>): {
  services: ServicesConfig;
  notes: string[];
} {
  const services: ServicesConfig = {};
  const notes: string[] = [];
  for (const service of Object.keys(ENV_NAMES) as ServiceName[]) {
    const names = ENV_NAMES[service];
    const baseUrl = env[names.url]?.trim() || DEFAULT_BASE_URLS[service];
    const apiKey = env[names.apiKey]?.trim();
    if (apiKey) {
      services[service] = { baseUrl, apiKey };
      notes.push(`${service}: ${baseUrl}`);
    } else {
      notes.push(`${service}: no tools, because ${names.apiKey} is not set`);
    }
  }
  return { services, notes };
}
