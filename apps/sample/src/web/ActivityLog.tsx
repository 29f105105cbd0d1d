import { formatDuration } from "./format.ts";
import type { RetryActivity } from "./hooks.ts";

/**
 * The clients' retries as they happen, pushed by the server: a rate limit shows here before its outcome, and a call
 * that went through after retries says so.
 */
export function ActivityLog({ activity }: { activity: RetryActivity[] }) {
  return (
    <section className="activity" aria-label="Client retries">
      <strong>Client retries</strong>
      {activity.length === 0 ? (
        <span className="muted"> none so far</span>
      ) : (
        <ul>
          {activity.map((entry, index) => (
            // Newest first, and an entry has no id of its own.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is only ever prepended and cut
            <li key={index} className={entry.type}>
              {describe(entry)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function describe(entry: RetryActivity): string {
  if (entry.type === "retry") {
    const { service, method, path, reason, delayMs } = entry.retry;
    return `${service}: ${method} ${path} answered ${reason}; retrying in ${formatDuration(delayMs / 1000)}`;
  }
  const { service, method, path, retries } = entry.recovery;
  return `${service}: ${method} ${path} went through after ${retries === 1 ? "1 retry" : `${retries} retries`}`;
}
