import { vi } from "vitest";

/** One scrape of `/metrics`: each sample's value by its name and labels, as Prometheus's text format writes them. */
export class MetricsScrape {
  readonly text: string;
  readonly #samples = new Map<string, number>();

  constructor(text: string) {
    this.text = text;
    for (const line of text.split("\n")) {
      if (line === "" || line.startsWith("#")) {
        continue;
      }
      const split = line.lastIndexOf(" ");
      this.#samples.set(sampleKey(line.slice(0, split)), Number(line.slice(split + 1)));
    }
  }

  /** The sample's value; 0 for a counter series not yet written. */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.#samples.get(keyOf(name, labels)) ?? 0;
  }

  /** Whether the sample is there at all. */
  has(name: string, labels: Record<string, string> = {}): boolean {
    return this.#samples.has(keyOf(name, labels));
  }

  /** The label sets of every sample of `name`. */
  series(name: string): Record<string, string>[] {
    return [...this.#samples.keys()]
      .filter((key) => key === name || key.startsWith(`${name}{`))
      .map((key) => parseLabels(key.slice(name.length)));
  }
}

/** Fetches `url` (a server's `.../metrics`) and reads it. */
export async function scrape(url: string): Promise<MetricsScrape> {
  const response = await fetch(url);
  if (response.status !== 200) {
    throw new Error(`GET ${url} answered ${response.status}`);
  }
  return new MetricsScrape(await response.text());
}

/**
 * Scrapes until `done` holds of a scrape (the work it counts has happened), for at most `timeoutMs`; answers that
 * scrape.
 */
export function scrapeUntil(
  url: string,
  done: (scrape: MetricsScrape) => boolean,
  timeoutMs = 15_000,
): Promise<MetricsScrape> {
  return vi.waitFor(
    async () => {
      const current = await scrape(url);
      if (!done(current)) {
        throw new Error(`The metrics have not reached what is waited for:\n${current.text}`);
      }
      return current;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [, name, value] of text.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
    labels[name as string] = value as string;
  }
  return labels;
}

function keyOf(name: string, labels: Record<string, string>): string {
  const names = Object.keys(labels).sort();
  return names.length === 0 ? name : `${name}{${names.map((label) => `${label}="${labels[label]}"`).join(",")}}`;
}

/** A sample's name and labels, with the labels in order of name. */
function sampleKey(text: string): string {
  const brace = text.indexOf("{");
  return brace === -1 ? text : keyOf(text.slice(0, brace), parseLabels(text.slice(brace)));
}
