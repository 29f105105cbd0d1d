import type { Retry } from "../shared/wire.ts";
import { formatDuration } from "./format.ts";

/** The clients' retries as they happen, pushed by the server: a rate limit shows here before its outcome. */
export function ActivityLog({ retries }: { retries: Retry[] }) {
  return (
    <section className="activity" aria-label="Client retries">
      <strong>Client retries</strong>
      {retries.length === 0 ? (
        <span className="muted"> none so far</span>
      ) : (
        <ul>
          {retries.map((retry, index) => (
            // Newest first, and a retry has no id of its own.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is only ever prepended and cut
            <li key={index}>
              {retry.service}: {retry.method} {retry.path} answered {retry.reason}; retrying in{" "}
              {formatDuration(retry.delayMs / 1000)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
