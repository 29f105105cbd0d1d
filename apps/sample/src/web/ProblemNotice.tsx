import type { Problem, Retry } from "../shared/wire.ts";
import type { ProblemError } from "./api.ts";
import { formatDuration } from "./format.ts";

const TITLES: Record<Problem["kind"], string> = {
  authentication: "The API key was refused",
  forbidden: "Not yours to change",
  rate_limit: "Rate limited",
  validation: "The API did not accept the input",
  not_found: "Not found",
  conflict: "Already taken",
  connection: "Cannot reach the API",
  other: "Something went wrong",
};

const KEY_VARIABLES = { inbox: "PIGEONHOLE_INBOX_API_KEY", forum: "PIGEONHOLE_FORUM_API_KEY" };

/** Explains a failed call: what the API said, the field it named, and what the client tried, if anything. */
export function ProblemNotice({ error }: { error: ProblemError | undefined }) {
  if (error === undefined) {
    return null;
  }
  const { problem, retries } = error;
  return (
    <div role="alert" className="problem" data-kind={problem.kind}>
      <strong>{TITLES[problem.kind]}</strong>
      {problem.status > 0 && (
        <span className="code">
          {problem.status} {problem.code}
        </span>
      )}
      <p>
        {problem.message} {problem.hint}
      </p>
      {problem.field !== undefined && (
        <p>
          Field: <code>{problem.field}</code>
        </p>
      )}
      {problem.kind === "authentication" && (
        <p>
          Check <code>{KEY_VARIABLES[problem.service]}</code> where the sample's server runs, and that "Use a wrong API
          key" is off.
        </p>
      )}
      {retries.length > 0 && <p className="retries">{describeRetries(retries)}</p>}
      {problem.retryAfterSeconds !== undefined && <p>{describeWait(problem.retryAfterSeconds, retries)}</p>}
      {problem.requestId !== undefined && <p className="muted">Request id {problem.requestId}</p>}
    </div>
  );
}

function describeRetries(retries: Retry[]): string {
  const steps = retries.map((retry) => `${retry.reason}, waited ${formatDuration(retry.delayMs / 1000)}`);
  const times = retries.length === 1 ? "once" : `${retries.length} times`;
  return `The client retried ${times} (${steps.join("; ")}), then gave up.`;
}

/** The clients sit out a wait of up to a minute; a longer one (a daily limit) they report at once, untried. */
function describeWait(seconds: number, retries: Retry[]): string {
  const wait = formatDuration(seconds);
  return retries.length === 0
    ? `The client did not retry: the API asks to wait ${wait}.`
    : `The API asks to wait ${wait} before trying again.`;
}
