// The public face of the write layer (docs/CONTRIBUTING.md §Layers): what other layers and services
// import, by name.
// The one write path: aspect changes in, version rows + derived edges + search fields out.
export { changeTypeOf, hardDeleteEntity, writeAspects, type AspectChange, type WriteOptions } from './aspect-writer.ts';
// GraphQL updateLineage.
export { updateLineage, type LineageEdgeInput } from './update-lineage.ts';
// OpenLineage events through the write path.
export { ingestOpenLineage } from './openlineage.ts';
// The existence mode of one request (strict/relaxed, from the header).
export { EXISTENCE_MODE_HEADER, existenceOptionsOf, type ExistencePolicy } from './existence-mode.ts';
// Resource-aware authorization of writes (policies), the doors' one call before writing.
export { authorizeOnEach, authorizeWrites, mayHoldOnSome } from './authorize.ts';
