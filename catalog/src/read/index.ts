// The public face of the read layer (docs/CONTRIBUTING.md §Layers): what other layers and services may import.
export * from './aspect-reader.ts';
export * from './entity-search.ts';
export * from './lineage/counts.ts';
export * from './lineage/query.ts';
export * from './lineage/results.ts';
export * from './lineage/select.ts';
export * from './lineage/service.ts';
export * from './lineage/traverse.ts';
export * from './entity-details.ts';
export * from './entity-documents.ts';
export * from './relationships.ts';
