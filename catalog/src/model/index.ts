// The public face of the model layer (docs/CONTRIBUTING.md §Layers): what other layers and services may import.
export * from './aspects/index.ts';
export * from './entity-registry.ts';
export * from './entity-types.ts';
export * from './errors.ts';
export * from './filters.ts';
export * from './json.ts';
export * from './json-depth.ts';
export * from './openlineage/events.ts';
export { applyPatch, SYSTEM_ACTOR, type PatchInput } from './patch/index.ts';
export * from './privileges.ts';
export * from './relationships.ts';
export * from './search-fields.ts';
export * from './urn.ts';
