export interface BoundedReadingOptions<Value> {
  /** The reading: one cheap query. */
  read: () => Promise<Value>;
  /** A value read this recently is answered again without reading. */
  freshForMs: number;
  /** A scrape waits this long for the reading at most; past it, the scrape answers without it. */
  answerWithinMs: number;
  /** Milliseconds of a monotonic clock. */
  now?: () => number;
}

const timedOut = (ms: number) =>
  new Promise<undefined>((resolve) => {
    setTimeout(() => resolve(undefined), ms).unref();
  });

/**
 * A value read from the database at scrape time, at bounded cost however often and however many scrapers ask: one
 * reading at a time (a scrape during a reading waits for that one), none again while the last is fresh, and a scrape
 * waits at most `answerWithinMs` (a slow reading goes on, and the next scrape waits for it rather than adding another).
 */
export class BoundedReading<Value> {
  readonly #options: Required<BoundedReadingOptions<Value>>;
  #reading: Promise<Value> | undefined;
  #last: { value: Value; atMs: number } | undefined;

  constructor(options: BoundedReadingOptions<Value>) {
    this.#options = { now: () => performance.now(), ...options };
  }

  /** The value, or undefined when the reading failed or did not answer in time. */
  async value(): Promise<Value | undefined> {
    const { read, freshForMs, answerWithinMs, now } = this.#options;
    if (this.#last && now() - this.#last.atMs < freshForMs) {
      return this.#last.value;
    }
    this.#reading ??= read()
      .then((value) => {
        this.#last = { value, atMs: now() };
        return value;
      })
      .finally(() => {
        this.#reading = undefined;
      });
    return Promise.race([this.#reading.catch(() => undefined), timedOut(answerWithinMs)]);
  }
}
