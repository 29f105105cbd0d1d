import { delimiter } from "node:path";
import { describe, expect, it } from "vitest";
import { freshEnv } from "./fresh-env.ts";

/** What a command run by pnpm inside the workspace sees, beside the user's own variables. */
const workspaceScriptEnv = {
  HOME: "/home/ada",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  XDG_CACHE_HOME: "/tmp/cache",
  NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt",
  PATH: [
    "./node_modules/.bin",
    "/work/node_modules/.bin",
    "/usr/lib/node_modules/pnpm/dist/node-gyp-bin",
    "/usr/bin",
  ].join(delimiter),
  NODE_PATH: "/work/node_modules/.pnpm/node_modules",
  NODE_OPTIONS: "--require /work/hook.cjs",
  INIT_CWD: "/work",
  PNPM_PACKAGE_NAME: "@pigeonhole/pack-check",
  PNPM_SCRIPT_SRC_DIR: "/work/tooling/pack-check",
  npm_config_user_agent: "pnpm/10.34.9",
  npm_package_name: "@pigeonhole/pack-check",
  pnpm_config_verify_deps_before_run: "false",
  TURBO_HASH: "abc",
  VITEST: "true",
};

describe("a fresh project's environment", () => {
  it("keeps a user's variables and drops every one the workspace's tools added", () => {
    expect(freshEnv({}, workspaceScriptEnv)).toEqual({
      HOME: "/home/ada",
      LANG: "C.UTF-8",
      LC_ALL: "C.UTF-8",
      XDG_CACHE_HOME: "/tmp/cache",
      NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt",
      PATH: "/usr/bin",
    });
  });

  it("adds what the caller sets, PATH included", () => {
    expect(freshEnv({ PATH: "/opt/node/bin", PIGEONHOLE_INBOX_API_KEY: "k" }, workspaceScriptEnv)).toMatchObject({
      PATH: "/opt/node/bin",
      PIGEONHOLE_INBOX_API_KEY: "k",
    });
  });
});
