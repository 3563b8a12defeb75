// The public face of the store layer (docs/CONTRIBUTING.md §Layers): what other layers and services may import.
export * from './cypher.ts';
export * from './existence.ts';
export * from './like-pattern.ts';
export * from './store.ts';
export * from './write-generation.ts';
export * from './rows.ts';
export * from './schema-version.ts';
