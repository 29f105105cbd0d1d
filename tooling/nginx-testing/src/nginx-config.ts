import { join } from "node:path";

/** The throw-away nginx's folder and what lives in it; nothing outside it is read or written but the certificates. */
export interface NginxPaths {
  readonly root: string;
  readonly config: string;
  readonly pid: string;
  readonly errorLog: string;
  /** Requests logged with nginx's default `combined` format, unless the configuration logs elsewhere. */
  readonly accessLog: string;
  /** Request bodies and proxied answers too large for memory go here, in folders nginx makes. */
  readonly temp: string;
}

export function nginxPaths(root: string): NginxPaths {
  return {
    root,
    config: join(root, "nginx.conf"),
    pid: join(root, "nginx.pid"),
    errorLog: join(root, "error.log"),
    accessLog: join(root, "access.log"),
    temp: join(root, "temp"),
  };
}

/**
 * nginx.conf of the throw-away instance: one worker, every path in its folder (logs and every temp path, so that
 * Debian's /var/lib/nginx and /var/log/nginx are never used), and `http` holding what the test gives, as a file in
 * /etc/nginx/conf.d/ would be. The pid file and `daemon off` are given on the command line.
 */
export function nginxConf(paths: NginxPaths, http: string): string {
  const temp = (name: string) => join(paths.temp, name);
  return [
    "worker_processes 1;",
    `error_log ${paths.errorLog} info;`,
    "events {",
    "    worker_connections 256;",
    "}",
    "http {",
    `    access_log ${paths.accessLog};`,
    `    client_body_temp_path ${temp("client-body")};`,
    `    proxy_temp_path ${temp("proxy")};`,
    `    fastcgi_temp_path ${temp("fastcgi")};`,
    `    uwsgi_temp_path ${temp("uwsgi")};`,
    `    scgi_temp_path ${temp("scgi")};`,
    http,
    "}",
    "",
  ].join("\n");
}
