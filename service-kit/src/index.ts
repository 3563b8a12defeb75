// What the services share over HTTP (docs/CONTRIBUTING.md §Layers).
export * from './graphql-envelope.ts';
export * from './graphql-http.ts';
export * from './graphql-limits.ts';
export * from './graphql-metrics.ts';
export * from './metrics.ts';
export * from './service-runtime.ts';
