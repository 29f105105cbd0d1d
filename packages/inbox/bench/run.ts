// Prints, side by side, what @pigeonhole/inbox costs against the agentmail SDK and against raw fetch:
// (1) browser bundle size, (2) requests per second through the client vs raw fetch, (3) tsc time of a consumer.
// Run: pnpm --filter @pigeonhole/inbox bench   (needs `pnpm turbo run build --filter=@pigeonhole/inbox...` first)
// Name sections to run only those, e.g. `pnpm --filter @pigeonhole/inbox bench bundle overhead` (or `typecheck`).
import { fork, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { type BuildOptions, build } from "esbuild";
import { moduleWeights } from "./module-weights.ts";
import { VARIANTS, type Variant } from "./overhead-variant.ts";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "fixtures");
const packageDir = join(here, "..");

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 8_000);
const ROUNDS = 10;
const WARMUP = 2_000;
const TSC_RUNS = 15;

/** The bench's output goes to stdout line by line. */
const print = (line: string) => process.stdout.write(`${line}\n`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

function bundleOptions(entry: string, external: string[] = []): BuildOptions {
  return {
    entryPoints: [join(fixtures, entry)],
    external,
    absWorkingDir: packageDir,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
  };
}

async function bundleSize(options: BuildOptions): Promise<{ minified: number; gzipped: number }> {
  const result = await build({ ...options, write: false });
  const code = result.outputFiles?.[0]?.contents ?? new Uint8Array();
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

async function bundles(): Promise<void> {
  const oursOptions = bundleOptions("browser-ours.ts");
  const ours = await bundleSize(oursOptions);
  // Its optional payment peer is imported lazily and never installed by users who do not use it.
  const theirs = await bundleSize(bundleOptions("browser-agentmail.ts", ["@x402/fetch"]));
  print("\n(1) Browser bundle that lists inboxes (esbuild, platform browser, minified; gzip level 9)");
  print(`    ${"".padEnd(20)}${"minified".padStart(12)}${"gzipped".padStart(12)}`);
  print(`    ${"@pigeonhole/inbox".padEnd(20)}${kb(ours.minified).padStart(12)}${kb(ours.gzipped).padStart(12)}`);
  print(`    ${"agentmail@0.5.27".padEnd(20)}${kb(theirs.minified).padStart(12)}${kb(theirs.gzipped).padStart(12)}`);
  print(
    `    size ratio, ours / agentmail: ${(ours.minified / theirs.minified).toFixed(3)} minified, ${(ours.gzipped / theirs.gzipped).toFixed(3)} gzipped (target: gzipped at most ${(1 / 6).toFixed(3)})`,
  );
  print(`    what @pigeonhole/inbox's bundle holds${"minified".padStart(37)}${"adds gzipped".padStart(14)}`);
  for (const weight of await moduleWeights(oursOptions)) {
    print(
      `      ${weight.module.padEnd(55)}${`${weight.minified} B`.padStart(10)}${`~${weight.gzipAdded} B`.padStart(14)}`,
    );
  }
}

/** Runs one variant in a fresh process against the server at `baseUrl`: its wall time and CPU time. */
function runVariant(variant: Variant, baseUrl: string, requests: number): { ms: number; cpuUs: number } {
  const run = spawnSync(
    process.execPath,
    [join(here, "overhead-variant.ts"), variant, baseUrl, String(requests), String(WARMUP)],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  if (run.status !== 0) {
    throw new Error(`${variant} failed (exit ${run.status})`);
  }
  return JSON.parse(run.stdout) as { ms: number; cpuUs: number };
}

async function overhead(): Promise<void> {
  const server = fork(join(here, "server.ts"), { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const { port } = await new Promise<{ port: number }>((resolve) =>
    server.once("message", resolve as (m: unknown) => void),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    const perRound = Math.ceil(REQUESTS / ROUNDS);
    const elapsed: Record<string, number[]> = Object.fromEntries(VARIANTS.map((name) => [name, []]));
    const cpu: Record<string, number> = Object.fromEntries(VARIANTS.map((name) => [name, 0]));
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved rounds, each starting with the next variant, so drift in the machine's load hits all alike.
      for (const name of [...VARIANTS.slice(round % VARIANTS.length), ...VARIANTS.slice(0, round % VARIANTS.length)]) {
        const { ms, cpuUs } = runVariant(name, baseUrl, perRound);
        elapsed[name]?.push(ms);
        cpu[name] = (cpu[name] ?? 0) + cpuUs;
      }
    }
    const rps = (name: string) => (perRound * ROUNDS * 1000) / (elapsed[name] ?? []).reduce((a, b) => a + b, 0);
    const baseline = rps("raw fetch");
    print(
      `\n(2) ${perRound * ROUNDS} sequential GET /v0/inboxes per variant against node:http on 127.0.0.1 (${ROUNDS} interleaved rounds of ${perRound}, each variant in a fresh process after ${WARMUP} warm-up requests)`,
    );
    print(
      `    ${"".padEnd(22)}${"req/s".padStart(8)}${"ratio to raw fetch".padStart(21)}${"(overall)".padStart(11)}${"client CPU/request".padStart(21)}`,
    );
    for (const name of VARIANTS) {
      // Each round's runs were back to back, so the median of per-round ratios shrugs off bursts of outside load.
      const roundRatios = (elapsed["raw fetch"] ?? []).map((raw, i) => raw / (elapsed[name]?.[i] ?? raw));
      const cpuPerRequest = (cpu[name] ?? 0) / (perRound * ROUNDS);
      print(
        `    ${name.padEnd(22)}${rps(name).toFixed(0).padStart(8)}${median(roundRatios).toFixed(3).padStart(21)}${(rps(name) / baseline).toFixed(3).padStart(11)}${`${cpuPerRequest.toFixed(0)} µs`.padStart(21)}`,
      );
    }
    print(
      "    target: ratio at least 0.95 (median of the per-round ratios). The control is raw fetch again: its distance",
    );
    print(
      "    from 1.000 is this run's noise. openapi-fetch alone, on its own fetch, is the floor of a client built on it.",
    );
  } finally {
    server.disconnect();
  }
}

/** One cold `tsc -p` of a fixture project: wall time, and the CPU time of its whole process (see report-cpu.ts). */
function timeTsc(tsc: string, project: string): { wall: number; cpu: number } {
  const started = performance.now();
  const run = spawnSync(process.execPath, ["--import", join(here, "report-cpu.ts"), tsc, "-p", project], {
    stdio: ["ignore", "inherit", "inherit", "pipe"],
  });
  const wall = performance.now() - started;
  // Stops the bench if the consumer does not typecheck, so a timing is never of a failed run.
  if (run.status !== 0) {
    throw new Error(`tsc -p ${project} failed (exit ${run.status})`);
  }
  return { wall, cpu: Number(run.output[3]?.toString()) };
}

function typecheckTimes(): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const names = ["empty", "ours", "agentmail"] as const;
  const wall: Record<string, number[]> = { empty: [], ours: [], agentmail: [] };
  const cpu: Record<string, number[]> = { empty: [], ours: [], agentmail: [] };
  for (let run = 0; run < TSC_RUNS; run++) {
    // Interleaved, and each run starts with the next program, so drift in the machine's load hits all alike.
    for (const name of [...names.slice(run % names.length), ...names.slice(0, run % names.length)]) {
      const time = timeTsc(tsc, join(fixtures, `tsc-${name}`));
      wall[name]?.push(time.wall);
      cpu[name]?.push(time.cpu);
    }
  }
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const row = (label: string, name: string) =>
    print(
      `    ${label.padEnd(28)}${ms(median(cpu[name] ?? [])).padStart(10)}${ms(median(wall[name] ?? [])).padStart(10)}`,
    );
  print(
    `\n(3) tsc --noEmit of the same small consumer program (six calls; median of ${TSC_RUNS} cold runs, skipLibCheck)`,
  );
  print(`    ${"".padEnd(28)}${"CPU".padStart(10)}${"wall".padStart(10)}`);
  row("@pigeonhole/inbox", "ours");
  row("agentmail@0.5.27", "agentmail");
  row("no SDK (tsc start, ES+DOM)", "empty");
  const base = median(cpu.empty ?? []);
  const ours = median(cpu.ours ?? []);
  const theirs = median(cpu.agentmail ?? []);
  print(
    `    time ratio, ours / agentmail (CPU): ${((ours - base) / (theirs - base)).toFixed(2)} for what the SDK adds to a program (target: at most 0.50), ${(ours / theirs).toFixed(2)} for the whole tsc run`,
  );
}

print(`@pigeonhole/inbox benchmark on Node ${process.version}`);
const sections = process.argv.slice(2);
const wanted = (section: string) => sections.length === 0 || sections.includes(section);
if (wanted("bundle")) {
  await bundles();
}
if (wanted("overhead")) {
  await overhead();
}
if (wanted("typecheck")) {
  typecheckTimes();
}
