import { APIError } from "./errors.js";

/** The shape of an openapi-fetch result; its success/error union matches this, so TData infers as the success type. */
export interface FetchResult<TData, TError> {
  data?: TData;
  error?: TError;
  response: Response;
}

/**
 * The throwing style over openapi-fetch: resolves to `data`, or throws the `APIError` subclass for the status.
 * For 204 and other empty responses openapi-fetch gives `data: undefined`, which is returned as is.
 */
export async function unwrap<TData, TError>(
  result: FetchResult<TData, TError> | PromiseLike<FetchResult<TData, TError>>,
): Promise<TData> {
  const { data, error, response } = await result;
  // openapi-fetch leaves `error` undefined for an empty error body, so the status is checked too.
  if (error !== undefined || !response.ok) {
    throw APIError.from<TError>(response, error);
  }
  return data as TData;
}
