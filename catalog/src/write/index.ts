// The public face of the write layer (docs/CONTRIBUTING.md §Layers): what other layers and services may import.
export * from './aspect-writer.ts';
export * from './update-lineage.ts';
export * from './openlineage.ts';
export * from './existence-mode.ts';
