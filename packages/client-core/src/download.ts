import type { FetchResult } from "./unwrap.js";

/** The ways to read a download's bytes: openapi-fetch's `parseAs` values other than JSON. */
export type DownloadParseAs = "blob" | "arrayBuffer" | "stream" | "text";

/**
 * A download's result, with an empty body read as an empty value of its kind. openapi-fetch gives `data: undefined`
 * for any answer with `Content-Length: 0`, but an empty file is still a file: a zero-byte `Blob`, not nothing.
 */
export async function readDownload<TData, TError>(
  result: Promise<FetchResult<TData, TError>>,
  parseAs: DownloadParseAs,
): Promise<FetchResult<TData, TError>> {
  const answer = await result;
  if (!answer.response.ok || answer.data !== undefined) {
    return answer;
  }
  return { ...answer, data: emptyBody(parseAs, answer.response) as TData };
}

function emptyBody(parseAs: DownloadParseAs, response: Response): Blob | ArrayBuffer | ReadableStream | string {
  switch (parseAs) {
    case "blob":
      return new Blob([], { type: response.headers.get("content-type") ?? "" });
    case "arrayBuffer":
      return new ArrayBuffer(0);
    case "stream":
      return new Blob([]).stream();
    case "text":
      return "";
  }
}
