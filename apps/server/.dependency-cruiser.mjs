// The import rules of src/, checked by `pnpm lint` (`depcruise src`). ARCHITECTURE.md says the same in words: change
// both together.
import { readdirSync, readFileSync } from "node:fs";

/**
 * The rooms of src/ and the rooms each may import, besides the shared modules below. Each room's own folder is always
 * allowed. The table must stay acyclic (checked below), so no two rooms can ever need each other.
 */
const ROOMS = {
  spec: { may: [], why: "the spec layer is generic" },
  storage: { may: [], why: "storage holds no domain code" },
  keys: { may: ["storage"], why: "keys use storage" },
  metrics: { may: [], why: "metrics are generic: the rooms count through its instruments, and it reads none of them" },
  "work-queue": { may: ["storage", "metrics"], why: "the work queue is generic" },
  http: { may: ["spec", "storage", "metrics"], why: "http is generic: no service and no test control" },
  mail: { may: ["storage", "metrics"], why: "mail is transport only: the inbox uses it, never the reverse" },
  forum: {
    may: ["http", "spec", "storage", "keys", "metrics"],
    why: "a service: the forum never reaches into the inbox or mail",
  },
  inbox: {
    may: ["http", "spec", "storage", "keys", "mail", "work-queue", "metrics"],
    why: "a service: the inbox never reaches into the forum",
  },
  "test-control": {
    may: ["http", "spec", "storage", "keys", "work-queue", "mail", "inbox", "forum", "metrics"],
    why: "test control sits above the product, which reaches it only through server.ts",
  },
};

/** Top-level modules every room may import; they import no room. */
const SHARED = [
  "canonical-json",
  "clock",
  "ids",
  "logger",
  "loopback-host",
  "runtime-check",
  "service-name",
  "without-bcc",
];
/**
 * Top-level modules that put the rooms together (the options table too); no room or shared module imports them, but
 * for the options' defaults, which import nothing at run time so that any room may read them.
 */
const WIRING = ["server", "cli", "index", "options"];
const OPTION_DEFAULTS = "^src/options/defaults\\.ts$";

/** The packages the published server depends on. */
const DEPENDENCIES = Object.keys(
  JSON.parse(readFileSync(new URL("package.json", import.meta.url), "utf8")).dependencies,
);

const TEST_FILE = "\\.test\\.ts$";
const ROOM_NAMES = Object.keys(ROOMS);
const anyOf = (names) => `(${names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`;
const roomPath = (names) => `^src/${anyOf(names)}/`;
const topLevelPath = (names) => `^src/${anyOf(names)}(\\.ts$|/)`;

assertAcyclic(ROOMS);
assertMapped(new URL("src/", import.meta.url));

/** One rule per room: from its shipped files, no room outside its list. */
const roomRules = Object.entries(ROOMS)
  .map(([room, { may, why }]) => ({ room, may, why, others: ROOM_NAMES.filter((other) => other !== room) }))
  .filter(({ may, others }) => others.some((other) => !may.includes(other)))
  .map(({ room, may, why, others }) => ({
    name: `${room}-imports`,
    severity: "error",
    comment: `${why}. ${room}/ may import ${may.length > 0 ? may.join(", ") : "no other room"} and the shared modules.`,
    from: { path: roomPath([room]), pathNot: TEST_FILE },
    to: { path: roomPath(others.filter((other) => !may.includes(other))) },
  }));

/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    ...roomRules,
    {
      name: "shared-imports",
      severity: "error",
      comment: `The shared top-level modules (${SHARED.join(", ")}) import no room.`,
      from: { path: topLevelPath(SHARED), pathNot: TEST_FILE },
      to: { path: roomPath(ROOM_NAMES) },
    },
    {
      name: "wiring-on-top",
      severity: "error",
      comment:
        `Only the wiring (${WIRING.join(", ")}) imports the wiring: a room takes its settings as arguments, and ` +
        "reads a default it needs from options/defaults.ts.",
      from: { path: [roomPath(ROOM_NAMES), topLevelPath(SHARED)], pathNot: TEST_FILE },
      to: { path: topLevelPath(WIRING), pathNot: OPTION_DEFAULTS },
    },
    {
      name: "option-defaults-are-values",
      severity: "error",
      comment: "options/defaults.ts imports types only, so that reading a default pulls in no other code.",
      from: { path: OPTION_DEFAULTS },
      to: { dependencyTypesNot: ["type-only"] },
    },
    {
      name: "metrics-through-instruments",
      severity: "error",
      comment:
        "The rooms count through metrics/instruments.ts (plain calls, a no-op when metrics are off); the registry, " +
        "the listener and prom-client are the metrics room's and the wiring's alone.",
      from: { path: roomPath(ROOM_NAMES.filter((room) => room !== "metrics")), pathNot: TEST_FILE },
      to: { path: ["^src/metrics/", "(^|/)node_modules/prom-client/"], pathNot: "^src/metrics/instruments\\.ts$" },
    },
    {
      name: "test-control-through-server",
      severity: "error",
      comment: "Test control reaches the product through its seam: only server.ts wires it in.",
      from: { path: "^src/", pathNot: [TEST_FILE, "^src/test-control/", "^src/server\\.ts$"] },
      to: { path: "^src/test-control/" },
    },
    {
      name: "no-harness",
      severity: "error",
      comment: "Shipped code never imports the harness (test/, bench/, fuzz/) or the build scripts.",
      from: { path: "^src/", pathNot: TEST_FILE },
      to: { path: "^(test|bench|fuzz|scripts)/" },
    },
    {
      name: "only-dependencies",
      severity: "error",
      comment:
        "Shipped code imports only Node's modules and the packages in `dependencies`, never a devDependency such as a " +
        "private workspace package. The one exception, src/spec/openapi-walker.ts, is replaced by the build " +
        "(scripts/ship-spec-layer.ts).",
      from: { path: "^src/", pathNot: [TEST_FILE, "^src/spec/openapi-walker\\.ts$"] },
      to: {
        dependencyTypes: ["npm-dev", "npm-optional", "npm-peer", "npm-bundled", "npm-no-pkg", "npm-unknown"],
      },
    },
    {
      name: "no-cycles",
      severity: "error",
      comment: "No module of src/ imports itself through others at run time (a cycle of types is harmless).",
      from: { path: "^src/", pathNot: TEST_FILE },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "resolvable",
      severity: "error",
      comment:
        "Every import resolves, so no arrow escapes the rules above. A package of `dependencies` may not, in a " +
        "workspace not built yet (the types packages hold only their build); the typecheck proves it does.",
      from: { path: "^src/", pathNot: TEST_FILE },
      to: { couldNotResolve: true, pathNot: `^${anyOf(DEPENDENCIES)}(/|$)` },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules", "^(test|bench|fuzz|scripts)/"] },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports are arrows too.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "node", "default", "types"],
      extensions: [".ts", ".js", ".d.ts", ".json"],
    },
    // Workspace packages are symlinks: kept as such, they count as the dependencies they are in package.json.
    preserveSymlinks: true,
    skipAnalysisNotInRules: true,
  },
};

/** Throws when src/ holds a folder or module the map does not place: a new one needs its line in the map first. */
function assertMapped(src) {
  const placed = new Set([...ROOM_NAMES, ...SHARED, ...WIRING]);
  const unplaced = readdirSync(src)
    .filter((entry) => !entry.endsWith(".test.ts"))
    .filter((entry) => !placed.has(entry.replace(/\.ts$/, "")));
  if (unplaced.length > 0) {
    throw new Error(
      `src/ holds ${unplaced.join(", ")}, which .dependency-cruiser.mjs and ARCHITECTURE.md do not place.`,
    );
  }
}

/** Throws when a room may import, through others, a room that may import it. */
function assertAcyclic(rooms) {
  const visit = (room, path) => {
    if (path.includes(room)) {
      throw new Error(`The rooms of .dependency-cruiser.mjs form a cycle: ${[...path, room].join(" -> ")}`);
    }
    for (const next of rooms[room]?.may ?? []) {
      visit(next, [...path, room]);
    }
  };
  for (const room of Object.keys(rooms)) {
    visit(room, []);
  }
}
