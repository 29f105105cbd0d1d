/** The shape of an openapi-fetch result; its success/error union matches this, so TData infers as the success type. */
export interface FetchResult<TData, TError> {
  data?: TData;
  error?: TError;
  response: Response;
}

/** Builds the error to throw for a non-2xx answer from the response and its parsed body. */
export type ErrorFromResponse = (response: Response, body: unknown) => Error;

/**
 * The throwing style over openapi-fetch: resolves to `data`, or throws the error `toError` builds for the answer.
 * For 204 and other empty responses openapi-fetch gives `data: undefined`, which is returned as is.
 */
export async function unwrap<TData, TError>(
  result: FetchResult<TData, TError> | PromiseLike<FetchResult<TData, TError>>,
  toError: ErrorFromResponse,
): Promise<TData> {
  const { data, error, response } = await result;
  // openapi-fetch leaves `error` undefined for an empty error body, so the status is checked too.
  if (error !== undefined || !response.ok) {
    throw toError(response, error);
  }
  return data as TData;
}
