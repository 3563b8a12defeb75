// The urn-key grammar (docs/lineage-model.md §Entity types): whether a urn's key parts fit its
// entity type's key fields (count, FabricType, nested urns of the right types, recursively), and
// the key aspect a urn's key gives positionally.
import { entityTypeSpec } from './entity-type-spec.ts';
import type { EntityTypeSpec } from './build-entity-registry.ts';
import { FABRIC_TYPES, type FabricType } from './entity-types.ts';
import { validationFailed } from './errors.ts';
import { InvalidUrnError, parseUrn, type Urn } from './urn.ts';

const FABRIC_SET: ReadonlySet<string> = new Set(FABRIC_TYPES);
export function isFabricType(value: string): value is FabricType {
  return FABRIC_SET.has(value);
}

/** Text after `urn:<ns>:<type>:` in canonical form; '' for a urn without a key. */
export function keyTextOf(u: Urn): string {
  const prefix = `urn:${u.namespace}:${u.entityType}`;
  return u.text.length > prefix.length ? u.text.slice(prefix.length + 1) : '';
}

/** Why a key does not fit its spec, or undefined when it does. Recurses into urn-typed parts. */
function keyProblem(u: Urn, spec: EntityTypeSpec): string | undefined {
  const { keyFields } = spec;
  if (u.parts.length !== keyFields.length) {
    const names = keyFields.map((f) => f.name).join(', ');
    return `expected ${keyFields.length} key part${keyFields.length === 1 ? '' : 's'} (${names}), got ${u.parts.length}`;
  }
  for (let i = 0; i < keyFields.length; i++) {
    const field = keyFields[i]!;
    const part = u.parts[i]!;
    if (spec.tier === 'modelled' && part === '') return `${field.name} is empty`;
    if (field.kind === 'fabric' && !isFabricType(part)) {
      return `${field.name} '${part}' is not a FabricType (${FABRIC_TYPES.join('|')})`;
    }
    if (field.kind === 'urn') {
      let inner: Urn;
      try {
        inner = parseUrn(part);
      } catch (e) {
        if (e instanceof InvalidUrnError) return `${field.name} '${part}' is not a valid urn (${e.reason})`;
        throw e;
      }
      if (!field.urnTypes.includes(inner.entityType)) return `${field.name} '${part}' is not a ${field.urnTypes.join(' or ')} urn`;
      const innerProblem = keyProblem(inner, entityTypeSpec(inner.entityType));
      if (innerProblem) return `${field.name} '${part}': ${innerProblem}`;
    }
  }
  return undefined;
}

/** Why a parsed urn's key does not fit its entity type, naming the urn; undefined when it fits. */
export function urnKeyProblem(u: Urn): string | undefined {
  const problem = keyProblem(u, entityTypeSpec(u.entityType));
  return problem === undefined ? undefined : `Invalid urn ${u.text}: ${problem}`;
}

/** Throws validationFailed naming the urn when its key does not fit its entity type. */
export function validateUrnKey(u: Urn): void {
  const problem = urnKeyProblem(u);
  if (problem !== undefined) throw validationFailed(problem);
}

/** The key aspect of an entity, derived positionally from its urn. */
export function keyAspectOf(u: Urn): { aspectName: string; value: Record<string, unknown> } {
  const spec = entityTypeSpec(u.entityType);
  if (spec.tier === 'generic') return { aspectName: spec.keyAspect, value: { id: keyTextOf(u) } };
  validateUrnKey(u);
  const value: Record<string, unknown> = {};
  spec.keyFields.forEach((field, i) => {
    value[field.name] = u.parts[i]!;
  });
  return { aspectName: spec.keyAspect, value };
}
