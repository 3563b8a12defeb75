// One error taxonomy for the whole catalog. Domain code throws CatalogError with a kind; the
// ingestion service renders it as a Rest.li error body and the lineage service as a GraphQL error
// (DataHub's codes). Anything that is not a CatalogError is unexpected: logged and masked.

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
export const notFound = (message: string) => new CatalogError('notFound', message);
export const conflict = (message: string) => new CatalogError('conflict', message);
export const preconditionFailed = (message: string) => new CatalogError('precondition', message);
export const unauthenticated = (message = 'Unauthorized to perform this action.') =>
  new CatalogError('unauthenticated', message);
export const forbidden = (message: string) => new CatalogError('forbidden', message);
export const unavailable = (message = 'The metadata store is unavailable; retry later.', cause?: unknown) =>
  new CatalogError('unavailable', message, { cause, retryAfterSeconds: 5 });
export const deadlineExceeded = (message: string) => new CatalogError('deadline', message);

export function isCatalogError(e: unknown): e is CatalogError {
  return e instanceof CatalogError;
}

/** HTTP status of each kind on the Rest.li surface. */
export const restStatusOf: Record<ErrorKind, number> = {
  badRequest: 400,
  validation: 422,
  notFound: 404,
  conflict: 409,
  precondition: 412,
  unauthenticated: 401,
  forbidden: 403,
  payloadTooLarge: 413,
  unavailable: 503,
  deadline: 504,
};

/** DataHub's GraphQL error code and type for each kind (docs/wire-contract.md §Errors). */
export const graphqlCodeOf: Record<ErrorKind, { code: number; type: string }> = {
  badRequest: { code: 400, type: 'BAD_REQUEST' },
  validation: { code: 400, type: 'BAD_REQUEST' },
  notFound: { code: 404, type: 'NOT_FOUND' },
  conflict: { code: 409, type: 'CONFLICT' },
  precondition: { code: 412, type: 'PRECONDITION_FAILED' },
  unauthenticated: { code: 401, type: 'UNAUTHORIZED' },
  forbidden: { code: 403, type: 'UNAUTHORIZED' },
  payloadTooLarge: { code: 400, type: 'BAD_REQUEST' },
  unavailable: { code: 503, type: 'SERVICE_UNAVAILABLE' },
  deadline: { code: 504, type: 'DEADLINE_EXCEEDED' },
};

export const UNKNOWN_ERROR_MESSAGE = 'An unknown error occurred.';
