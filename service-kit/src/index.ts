// What the services share over HTTP (docs/CONTRIBUTING.md §Layers).
export * from './bookmarks.ts';
export * from './error-codes.ts';
export * from './gms-prefix.ts';
export * from './gms-routes.ts';
export * from './graphql-envelope.ts';
export * from './graphql-http.ts';
export * from './graphql-limits.ts';
export * from './graphql-metrics.ts';
export * from './http-options.ts';
export * from './metrics.ts';
export * from './openlineage-paths.ts';
export * from './request-body.ts';
export * from './service-runtime.ts';
