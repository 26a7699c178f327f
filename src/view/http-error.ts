/** An answer the view gives on purpose (404, 403, 400 …), with what to do; anything else is a 500. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
