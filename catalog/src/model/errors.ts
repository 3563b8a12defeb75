// One error taxonomy for the whole catalog. Domain code throws CatalogError with a kind; the doors
// render it — the ingestion service as a Rest.li error body, the GraphQL doors as DataHub's codes —
// from the tables in service-kit/src/error-codes.ts. Anything that is not a CatalogError is
// unexpected: logged and masked.

export type ErrorKind =
  | 'badRequest' //        malformed request: bad JSON, bad query parameter, missing action parameter
  | 'validation' //        the request is well formed but its metadata is invalid (Rest.li 422)
  | 'notFound'
  | 'conflict'
  | 'precondition' //      a conditional write's If-Version-Match / If-None-Match does not hold (412)
  | 'unauthenticated'
  | 'forbidden'
  | 'payloadTooLarge'
  | 'unavailable' //       the store cannot be reached or we are shutting down
  | 'deadline';

export class CatalogError extends Error {
  readonly kind: ErrorKind;
  /** Seconds a client should wait before retrying (unavailable only). */
  readonly retryAfterSeconds?: number;
  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CatalogError';
    this.kind = kind;
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const badRequest = (message: string) => new CatalogError('badRequest', message);
export const validationFailed = (message: string) => new CatalogError('validation', message);
export const conflict = (message: string) => new CatalogError('conflict', message);
export const notFound = (message: string) => new CatalogError('notFound', message);
export const preconditionFailed = (message: string) => new CatalogError('precondition', message);
export const unauthenticated = (message = 'Unauthorized to perform this action.') => new CatalogError('unauthenticated', message);
export const forbidden = (message: string) => new CatalogError('forbidden', message);
export const payloadTooLarge = (message: string) => new CatalogError('payloadTooLarge', message);
export const unavailable = (message = 'The metadata store is unavailable; retry later.', cause?: unknown) =>
  new CatalogError('unavailable', message, { cause, retryAfterSeconds: 5 });
export const deadlineExceeded = (message: string) => new CatalogError('deadline', message);

export function isCatalogError(e: unknown): e is CatalogError {
  return e instanceof CatalogError;
}
