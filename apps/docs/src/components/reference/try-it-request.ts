// Where the "Try it" panel sends its request: the reader's server, checked, and the operation's path on it.

export class TryItRequestError extends Error {
  override name = "TryItRequestError";
}

/** The chosen server, checked: an http(s) address with no user name or password in it. */
export function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new TryItRequestError(`"${text}" is not an address: write one such as http://127.0.0.1:4010.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TryItRequestError(`The server's address must start with http:// or https://, not ${url.protocol}//.`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new TryItRequestError("Leave the user name and password out of the server's address.");
  }
  url.search = "";
  url.hash = "";
  return url;
}

/** The request's URL: the base's origin and path, then the operation's path with its parameters URL-encoded. */
export function buildRequestUrl(
  base: URL,
  path: string,
  pathValues: ReadonlyMap<string, string>,
  query: readonly (readonly [string, string])[],
): URL {
  const filled = path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = pathValues.get(name) ?? "";
    if (value === "") {
      throw new TryItRequestError(`Fill in the path parameter ${name}.`);
    }
    return encodeURIComponent(value);
  });
  const url = new URL(base.origin);
  url.pathname = `${base.pathname.replace(/\/+$/, "")}${filled}`;
  for (const [name, value] of query) {
    url.searchParams.append(name, value);
  }
  // The key may go to the chosen server only: a path can never lead the request elsewhere.
  if (url.origin !== base.origin) {
    throw new TryItRequestError("The request would leave the chosen server.");
  }
  return url;
}
