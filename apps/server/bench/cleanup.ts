/** Things to undo at the end, last first, whether the run succeeded or not. */
export class Cleanup {
  readonly #steps: (() => Promise<void> | void)[] = [];
  #running: Promise<void> | undefined;

  add(step: () => Promise<void> | void): void {
    this.#steps.push(step);
  }

  /** Clean-up of a part that ends sooner, which this one also runs when it ends first (on an interrupt). */
  nested(): Cleanup {
    const part = new Cleanup();
    this.add(() => part.run());
    return part;
  }

  /** Runs the steps; a call while they run (an interrupt during the normal end) waits for the same run. */
  run(): Promise<void> {
    this.#running ??= this.#runSteps().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #runSteps(): Promise<void> {
    for (let step = this.#steps.pop(); step; step = this.#steps.pop()) {
      try {
        await step();
      } catch (error) {
        process.stderr.write(`Clean-up failed: ${String(error)}\n`);
      }
    }
  }
}
