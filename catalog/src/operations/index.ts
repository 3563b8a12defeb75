// The public face of the operations layer (docs/CONTRIBUTING.md §Layers): what other layers and services may import.
export * from './auth/access-tokens.ts';
export * from './auth/authenticate.ts';
export * from './auth/tokens.ts';
export * from './restore/diff.ts';
export * from './restore/restore-indices.ts';
export * from './backup/index.ts';
