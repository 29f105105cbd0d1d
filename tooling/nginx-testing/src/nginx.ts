import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import {
  forgetOnExit,
  freePort,
  isRunning,
  makeOwnedFolder,
  stopOnExit,
  stopOrphans,
} from "@pigeonhole/test-processes";
import { type NginxPaths, nginxConf, nginxPaths } from "./nginx-config.ts";
import { findNginx } from "./programs.ts";

export interface NginxConfigContext {
  /** The instance's folder: a place for the files the configuration names, such as certificates or a log. */
  readonly dir: string;
  /** Free ports of 127.0.0.1, as many as asked for, for the configuration's `listen` directives. */
  readonly ports: readonly number[];
}

export interface StartNginxOptions {
  /**
   * What goes inside `http { }`, as in a file of /etc/nginx/conf.d/: maps, log formats, upstreams and servers. Called
   * again with other ports when one was taken before nginx bound it.
   */
  readonly http: (context: NginxConfigContext) => string | Promise<string>;
  /** How many ports to pick (1 by default). */
  readonly ports?: number;
  /** The folder to make the instance's folder in; the system's temp folder by default. */
  readonly parentDir?: string;
}

export interface Nginx {
  /** The instance's folder: configuration, logs, temp files. */
  readonly dir: string;
  readonly ports: readonly number[];
  /** The configuration nginx runs with. */
  readonly config: string;
  /** The access log of requests the configuration does not log elsewhere (nginx's `combined` format). */
  accessLog(): Promise<string>;
  errorLog(): Promise<string>;
  /** Stops nginx and removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** Every instance's folder starts with this, so that the next start can find those left running (see `stopOrphans`). */
const NGINX_PREFIX = "pigeonhole-nginx-";

/** How many sets of ports a start tries when one it picked is taken before nginx binds it. */
const START_ATTEMPTS = 5;

const START_TIMEOUT_MS = 10_000;

function lastLines(text: string, count = 15): string {
  return text.trim().split("\n").slice(-count).join("\n");
}

const readText = (path: string) => readFile(path, "utf8").catch(() => "");

async function readPid(paths: NginxPaths): Promise<number | undefined> {
  const pid = Number((await readText(paths.pid)).trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** The command line: the folder as prefix, its configuration and error log, in the foreground. */
function nginxArgs(paths: NginxPaths): string[] {
  return ["-p", paths.root, "-c", paths.config, "-e", paths.errorLog, "-g", `daemon off; pid ${paths.pid};`];
}

/** Resolves once nginx accepts connections on every port; rejects with its error log if it exits first. */
async function untilListening(child: ChildProcess, paths: NginxPaths, ports: readonly number[]): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`nginx exited at start. Its error log ends:\n${lastLines(await readText(paths.errorLog))}`);
    }
    if ((await Promise.all(ports.map(accepts))).every(Boolean)) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `nginx did not listen within ${START_TIMEOUT_MS} ms: ${lastLines(await readText(paths.errorLog))}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = once(child, "exit");
  // TERM is nginx's fast shutdown: open connections are closed at once.
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts Debian's nginx in the foreground from a throw-away configuration in a new folder of the temp directory:
 * `nginx -p DIR -c DIR/nginx.conf -e DIR/error.log -g 'daemon off; pid DIR/nginx.pid;'`, with every log and temp path
 * in DIR. /etc/nginx, /var/log/nginx and /var/lib/nginx are never used. `stop()` ends it and removes the folder; a
 * process that exits without calling it stops it on the way out, and one whose process was killed outright is stopped
 * by the next start.
 */
export async function startNginx(options: StartNginxOptions): Promise<Nginx> {
  const nginx = findNginx();
  const parentDir = options.parentDir ?? tmpdir();
  await stopOrphans(parentDir, NGINX_PREFIX, async (root) => {
    const pid = await readPid(nginxPaths(root));
    if (pid !== undefined && isRunning(pid)) {
      // TERM, so that the master ends its workers too, which would otherwise keep its ports.
      process.kill(pid, "SIGTERM");
      const deadline = Date.now() + 5_000;
      while (isRunning(pid) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      if (isRunning(pid)) {
        process.kill(pid, "SIGKILL");
      }
    }
  });
  const root = await makeOwnedFolder(parentDir, NGINX_PREFIX);
  const paths = nginxPaths(root);
  // As root, nginx's workers run as `nobody`, and must reach the temp folders through this one.
  await chmod(root, 0o755);
  await mkdir(paths.temp, { mode: 0o755 });

  let child: ChildProcess | undefined;
  const stopNow = () => {
    forgetOnExit(stopNow);
    // TERM: the master ends its workers on its way out, after this process is gone.
    child?.kill("SIGTERM");
    rmSync(root, { recursive: true, force: true });
  };
  stopOnExit(stopNow);

  try {
    for (let attempt = 1; ; attempt++) {
      const ports = await Promise.all(Array.from({ length: options.ports ?? 1 }, () => freePort()));
      const config = nginxConf(paths, await options.http({ dir: root, ports }));
      await writeFile(paths.config, config);
      child = spawn(nginx, nginxArgs(paths), { stdio: "ignore", env: { ...process.env, LC_ALL: "C" } });
      try {
        await untilListening(child, paths, ports);
      } catch (error) {
        await stopChild(child);
        if ((await readText(paths.errorLog)).includes("Address already in use") && attempt < START_ATTEMPTS) {
          await rm(paths.errorLog, { force: true });
          continue;
        }
        throw error;
      }
      const running = child;
      let stopped: Promise<void> | undefined;
      return {
        dir: root,
        ports,
        config,
        accessLog: () => readText(paths.accessLog),
        errorLog: () => readText(paths.errorLog),
        stop: () => {
          stopped ??= (async () => {
            forgetOnExit(stopNow);
            await stopChild(running);
            await rm(root, { recursive: true, force: true });
          })();
          return stopped;
        },
      };
    }
  } catch (error) {
    stopNow();
    throw error;
  }
}
