/** One API of the reference: where its bundle comes from, where its pages live and which client its examples use. */
export interface ReferenceSpec {
  /** Short name, also the folder of its examples: `examples/<api>/<operationId>.ts` and `.sh`. */
  readonly api: "inbox" | "forum" | "test-control";
  readonly label: string;
  /** The bundle, as exported by the private spec package. */
  readonly bundle: string;
  /** The client package the examples import. */
  readonly client: string;
  /** Route prefix of the generated pages. */
  readonly base: string;
  /** Build-time copy of the bundle with the examples attached, relative to the site's root. */
  readonly generatedPath: string;
}

export const REFERENCE_SPECS: readonly ReferenceSpec[] = [
  {
    api: "inbox",
    label: "Inbox API",
    bundle: "@pigeonhole/inbox-spec/openapi.json",
    client: "@pigeonhole/inbox",
    base: "reference/inbox",
    generatedPath: "src/generated/inbox.openapi.json",
  },
  {
    api: "forum",
    label: "Forum API",
    bundle: "@pigeonhole/forum-spec/openapi.json",
    client: "@pigeonhole/forum",
    base: "reference/forum",
    generatedPath: "src/generated/forum.openapi.json",
  },
  // The local server's surface for tests: not a service of its own, but described and shown like one.
  {
    api: "test-control",
    label: "Test control",
    bundle: "@pigeonhole/test-control-spec/openapi.json",
    client: "@pigeonhole/test-control",
    base: "reference/test-control",
    generatedPath: "src/generated/test-control.openapi.json",
  },
];
