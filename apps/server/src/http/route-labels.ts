import type { Context } from "hono";
import { matchedRoutes } from "hono/route";

/** What a request that matched no labelled route is counted as. */
export const UNMATCHED_ROUTE = "not_found";

/**
 * The name a request is counted under: the operationId (or fixed name) of the route it matched, found by the route's
 * handler, so that the names come only from the routes the app registered, never from what a client sends. Read only
 * when requests are counted.
 */
export class RouteLabels {
  // biome-ignore lint/complexity/noBannedTypes: handlers of every route type are keys here, compared by identity.
  readonly #byHandler = new Map<Function, string>();

  /** Counts requests that `handler` serves (or refuses, as the first handler of its route) as `name`. */
  // biome-ignore lint/complexity/noBannedTypes: see above.
  name<Handler extends Function>(handler: Handler, name: string): Handler {
    this.#byHandler.set(handler, name);
    return handler;
  }

  /** The name of the first labelled route `c`'s request matched (middleware that runs for every path is not one). */
  of(c: Context): string {
    for (const route of matchedRoutes(c)) {
      const name = this.#byHandler.get(route.handler);
      if (name !== undefined) {
        return name;
      }
    }
    return UNMATCHED_ROUTE;
  }
}
