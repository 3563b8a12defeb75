// PATCH by engine (docs/wire-contract.md §Rest.li): apply-patch.ts parses a proposal and picks one of
// json-patch.ts (RFC 6902 with DataHub's leniencies), templates.ts (the per-aspect map views) and
// keyed-patch.ts (the generic keyed patch).
export { applyPatch, type PatchInput } from './apply-patch.ts';
