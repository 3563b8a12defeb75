// How the doors render the domain's error kinds (catalog/src/model/errors.ts; docs/wire-contract.md
// §Errors): one table for the Rest.li and OpenAPI status, one for DataHub's GraphQL code and type,
// and the message that masks anything that is not a CatalogError. The domain names the kinds; what
// they look like on the wire is the doors' business.
import type { ErrorKind } from '@lineage/catalog/model';

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
