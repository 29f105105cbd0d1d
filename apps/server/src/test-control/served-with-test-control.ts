import type { Hono } from "hono";
import { isTestControlPath } from "./test-control-app.ts";

type FetchApp = Pick<Hono, "fetch">;

/** The path of a request URL (`http://host:port/path?query`), without parsing the whole URL. */
const pathOf = (url: string): string => {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) {
    return "/";
  }
  const end = url.slice(start).search(/[?#]/);
  return end === -1 ? url.slice(start) : url.slice(start, start + end);
};

/**
 * A service's app with test control beside it: `/_test` paths go to test control (so they never meet the service's
 * faults, key or limits); every other path to the service. Without test control, the service answers everything,
 * and `/_test` is as unknown to it as any other path.
 */
export function servedWithTestControl(service: FetchApp, testControl: FetchApp | undefined): FetchApp {
  if (!testControl) {
    return service;
  }
  return {
    fetch: (request, env, context) =>
      isTestControlPath(pathOf(request.url))
        ? testControl.fetch(request, env, context)
        : service.fetch(request, env, context),
  };
}
