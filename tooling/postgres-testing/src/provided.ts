/** What the global set-up hands every test file: the server to make databases on. */
export interface TestServer {
  /** Any database of the server, as the user that creates the test databases. */
  readonly url: string;
  /** Every database of this run starts with it, so that the run can drop its own and no other. */
  readonly prefix: string;
}

export const TEST_SERVER_KEY = "pigeonholePostgresTestServer";

declare module "vitest" {
  interface ProvidedContext {
    [TEST_SERVER_KEY]: TestServer;
  }
}
