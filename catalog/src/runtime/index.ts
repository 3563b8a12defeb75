// The public face of the runtime layer (docs/CONTRIBUTING.md §Layers): what other layers and services may import.
export * from './config.ts';
export * from './logger.ts';
export * from './request-context.ts';
export * from './causality.ts';
