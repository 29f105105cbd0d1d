import type { CoveragePassOutcome } from "./coverage-pass.ts";

/** The kinds of failure the fuzz suite looks for. */
export const FAILURE_KINDS = {
  serverError: "a 5xx answer",
  noAnswer: "no HTTP answer (connection dropped or timed out)",
  notJson: "an answer body that is not JSON",
  undocumented: "a status or body the operation does not document",
  outsideEnvelope: "an error outside the service's envelope",
  invalidAccepted: "a request the spec refuses answered 2xx",
  unauthenticated: "a request without a valid key not answered 401",
  methodNot405: "an unsupported method not answered 405 with Allow",
  missingFound: "another tenant's, a deleted or an unknown id answered 2xx",
  missingNot404: "a missing resource answered by what other resources hold instead of 404",
  leak: "another tenant's data in an answer",
  sharedHidden: "another agent's data answered 404 where every agent sees it",
  notReadable: "a created resource not readable as created",
  precisionLost: "a paging number changed on its way back",
  listMismatch: "a list whose count or size disagrees with its items or the limit asked",
  validRefused: "a request the spec takes refused as breaking the schema",
  formatAccepted: "a value that is not of its format (strict reading) accepted",
  formatAnswered: "a value that is not of its format (strict reading) in an answer",
  unhostedInbox: "an inbox answered outside the domains the server hosts",
} as const;

export type FailureKind = keyof typeof FAILURE_KINDS;

export interface Failure {
  kind: FailureKind;
  /** What was wrong with this answer. */
  detail: string;
  /** The request and its answer, enough to reproduce it with curl. */
  reproduction: string;
}

const EXAMPLES_KEPT = 3;

/** Counts requests, answers by status class and failures by kind, keeping a few reproductions of each kind. */
export class FuzzReport {
  requests = 0;
  readonly #statusClasses = new Map<string, number>();
  readonly #operations = new Map<string, { sent: number; succeeded: number }>();
  /** Per operation, how its last request the spec takes, naming only live ids, was refused (status and answer). */
  readonly #refusals = new Map<string, string>();
  readonly #failures = new Map<FailureKind, { count: number; examples: Failure[] }>();
  /** How many requests of each kind the stricter checks applied to. */
  readonly #tallies = new Map<string, number>();
  #elapsedMs = 0;
  #interrupted = false;
  #coverage: CoveragePassOutcome | null = null;

  readonly service: string;
  readonly #operationCount: number;

  constructor(service: string, operationCount: number) {
    this.service = service;
    this.#operationCount = operationCount;
  }

  answered(operationId: string, status: number | null): void {
    this.requests++;
    const statusClass = status === null ? "none" : `${Math.floor(status / 100)}xx`;
    this.#statusClasses.set(statusClass, (this.#statusClasses.get(statusClass) ?? 0) + 1);
    const counts = this.#operations.get(operationId) ?? { sent: 0, succeeded: 0 };
    counts.sent++;
    if (status !== null && status >= 200 && status < 300) {
      counts.succeeded++;
    }
    this.#operations.set(operationId, counts);
  }

  /** Notes why a request the spec takes, naming only live ids of the caller, was not answered 2xx. */
  refused(operationId: string, status: number, answerText: string): void {
    this.#refusals.set(operationId, `${status} ${answerText.slice(0, 200)}`);
  }

  failed(failure: Failure): void {
    const entry = this.#failures.get(failure.kind) ?? { count: 0, examples: [] };
    entry.count++;
    if (entry.examples.length < EXAMPLES_KEPT) {
      entry.examples.push(failure);
    }
    this.#failures.set(failure.kind, entry);
  }

  tally(kind: string): void {
    this.#tallies.set(kind, (this.#tallies.get(kind) ?? 0) + 1);
  }

  finished(elapsedMs: number): void {
    this.#elapsedMs = elapsedMs;
  }

  interrupt(): void {
    this.#interrupted = true;
  }

  get interrupted(): boolean {
    return this.#interrupted;
  }

  /** Notes how the pass that visits every operation until it answers 2xx ended. */
  covered(outcome: CoveragePassOutcome): void {
    this.#coverage = outcome;
  }

  /** Whether the time limit stopped that pass before every operation had answered 2xx or used up its rounds. */
  get coverageCut(): boolean {
    return this.#coverage?.cut ?? false;
  }

  /** Whether the operation answered 2xx at least once. */
  succeededOnce(operationId: string): boolean {
    return (this.#operations.get(operationId)?.succeeded ?? 0) > 0;
  }

  /** Operations that answered 2xx at least once. */
  operationsSucceeded(): string[] {
    return [...this.#operations].filter(([, counts]) => counts.succeeded > 0).map(([id]) => id);
  }

  operationsSent(): string[] {
    return [...this.#operations.keys()];
  }

  failureCounts(): Partial<Record<FailureKind, number>> {
    return Object.fromEntries([...this.#failures].map(([kind, entry]) => [kind, entry.count]));
  }

  /** A few lines for the test log: what ran, how it was answered, and what failed, with reproductions. */
  summary(): string {
    const classes = [...this.#statusClasses].sort().map(([name, count]) => `${name} ${count}`);
    const lines = [
      `${this.service}: ${this.operationsSent().length}/${this.#operationCount} operations sent, ` +
        `${this.operationsSucceeded().length} answered 2xx; ${this.requests} requests` +
        `${this.#interrupted ? " (time limit reached)" : ""} in ${(this.#elapsedMs / 1000).toFixed(1)} s; ` +
        `answers ${classes.join(", ")}`,
      `${this.service}: per operation, sent/2xx: ${[...this.#operations]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([id, counts]) => `${id} ${counts.sent}/${counts.succeeded}`)
        .join(", ")}`,
      `${this.service}: of which ${[...this.#tallies]
        .sort(([, a], [, b]) => b - a)
        .map(([kind, count]) => `${count} ${kind}`)
        .join(", ")}`,
    ];
    if (this.#coverage !== null) {
      const { rounds, requests, cut, uncovered } = this.#coverage;
      lines.push(
        `${this.service}: coverage pass: ${requests} requests over ${rounds} rounds` +
          `${cut ? ", stopped by the time limit" : ""}` +
          `${uncovered.length > 0 ? `; without a 2xx after it: ${uncovered.join(", ")}` : ""}`,
      );
    }
    const neverSucceeded = [...this.#operations].filter(([, counts]) => counts.succeeded === 0).map(([id]) => id);
    for (const id of neverSucceeded.sort()) {
      const refusal = this.#refusals.get(id);
      lines.push(
        `${this.service}: ${id} never answered 2xx${refusal === undefined ? "" : `; a valid request: ${refusal}`}`,
      );
    }
    if (this.#failures.size === 0) {
      lines.push(`${this.service}: no failures`);
    }
    for (const [kind, entry] of this.#failures) {
      lines.push(`${this.service}: ${entry.count} x ${kind}: ${FAILURE_KINDS[kind]}`);
      for (const example of entry.examples) {
        lines.push(`    ${example.detail}\n      ${example.reproduction}`);
      }
    }
    return lines.join("\n");
  }
}
