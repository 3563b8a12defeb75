// The dataHubPolicyInfo aspect (DataHub's DataHubPolicyInfo.pdl): its shape, checked like every
// modelled aspect (422 naming the field), the names inside it that must be ones we know (an unknown
// privilege or resource-filter field is a 400 naming it: the policy is well formed but asks for
// something that does not exist), and the normalized form the engine evaluates.
import { z } from 'zod';
import { badRequest } from '../errors.ts';
import { isPrivilege, type Privilege } from './privilege-names.ts';

const POLICY_TYPES = ['METADATA', 'PLATFORM'] as const;
const POLICY_STATES = ['ACTIVE', 'INACTIVE', 'DRAFT'] as const;
const MATCH_CONDITIONS = ['EQUALS', 'STARTS_WITH', 'NOT_EQUALS'] as const;
type MatchCondition = (typeof MATCH_CONDITIONS)[number];

/**
 * The resource fields a filter criterion may test (DataHub's EntityFieldType; RESOURCE_TYPE and
 * RESOURCE_URN are its older names of TYPE and URN). Names compare case-insensitively, as
 * DataHub's valueOf(field.toUpperCase()).
 */
const RESOURCE_FIELDS = ['TYPE', 'URN', 'OWNER', 'DOMAIN', 'CONTAINER', 'DATA_PLATFORM_INSTANCE', 'GROUP_MEMBERSHIP', 'TAG'] as const;
type ResourceField = (typeof RESOURCE_FIELDS)[number];
const FIELD_ALIASES: Readonly<Record<string, ResourceField>> = { RESOURCE_TYPE: 'TYPE', RESOURCE_URN: 'URN' };

const criterionSchema = z.looseObject({
  field: z.string(),
  values: z.array(z.string()),
  condition: z.enum(MATCH_CONDITIONS).optional(),
});

export const policyInfoSchema = z.looseObject({
  displayName: z.string(),
  description: z.string().nullish(),
  type: z.enum(POLICY_TYPES),
  state: z.enum(POLICY_STATES),
  resources: z
    .looseObject({
      type: z.string().nullish(),
      resources: z.array(z.string()).nullish(),
      allResources: z.boolean().optional(),
      filter: z.looseObject({ criteria: z.array(criterionSchema) }).nullish(),
    })
    .nullish(),
  privileges: z.array(z.string()),
  actors: z.looseObject({
    users: z.array(z.string()).nullish(),
    groups: z.array(z.string()).nullish(),
    roles: z.array(z.string()).nullish(),
    resourceOwners: z.boolean().optional(),
    resourceOwnersTypes: z.array(z.string()).nullish(),
    allUsers: z.boolean().optional(),
    allGroups: z.boolean().optional(),
  }),
  editable: z.boolean().optional(),
  lastUpdatedTimestamp: z.number().int().nullish(),
});

type RawPolicyInfo = z.infer<typeof policyInfoSchema>;

export interface Criterion {
  field: ResourceField;
  values: readonly string[];
  condition: MatchCondition;
}

interface PolicyActors {
  users: readonly string[];
  groups: readonly string[];
  roles: readonly string[];
  resourceOwners: boolean;
  /** Ownership type urns; empty = owners of any type. */
  resourceOwnersTypes: readonly string[];
  allUsers: boolean;
  allGroups: boolean;
}

/** What the engine evaluates: defaults applied, legacy resource fields turned into criteria. */
export interface Policy {
  urn: string;
  type: (typeof POLICY_TYPES)[number];
  state: (typeof POLICY_STATES)[number];
  displayName: string;
  description: string | null;
  privileges: readonly Privilege[];
  actors: PolicyActors;
  /** undefined = the policy names no resources, so it applies to every resource (and to none). */
  criteria: readonly Criterion[] | undefined;
  editable: boolean;
  /** The stored value, as written (what listPolicies answers). */
  info: Record<string, unknown>;
}

function resourceFieldOf(name: string): ResourceField {
  const upper = name.toUpperCase();
  const field = Object.hasOwn(FIELD_ALIASES, upper) ? FIELD_ALIASES[upper] : RESOURCE_FIELDS.find((f) => f === upper);
  if (!field) throw badRequest(`Unknown policy resource filter field '${name}' (known: ${RESOURCE_FIELDS.join(', ')})`);
  return field;
}

/**
 * DataHub's reading of a resource filter: the filter when present, else the legacy `type` (and
 * `resources`, unless allResources) as TYPE / URN criteria. No criteria = every resource.
 */
function criteriaOf(resources: RawPolicyInfo['resources']): Criterion[] | undefined {
  if (!resources) return undefined;
  if (resources.filter) {
    return resources.filter.criteria.map((c) => ({
      field: resourceFieldOf(c.field),
      values: c.values,
      condition: c.condition ?? 'EQUALS',
    }));
  }
  const criteria: Criterion[] = [];
  if (resources.type) criteria.push({ field: 'TYPE', values: [resources.type], condition: 'EQUALS' });
  if (resources.type && resources.resources && !resources.allResources) {
    criteria.push({ field: 'URN', values: resources.resources, condition: 'EQUALS' });
  }
  return criteria;
}

/**
 * A stored or submitted dataHubPolicyInfo value as the engine's Policy. The value must already
 * have passed policyInfoSchema (the write path checks it); names it does not know are a 400.
 */
export function toPolicy(urn: string, value: unknown): Policy {
  const info = policyInfoSchema.parse(value);
  const privileges = info.privileges.map((p) => {
    if (!isPrivilege(p)) throw badRequest(`Unknown privilege '${p}' in policy ${urn}`);
    return p;
  });
  const a = info.actors;
  return {
    urn,
    type: info.type,
    state: info.state,
    displayName: info.displayName,
    description: info.description ?? null,
    privileges,
    actors: {
      users: a.users ?? [],
      groups: a.groups ?? [],
      roles: a.roles ?? [],
      resourceOwners: a.resourceOwners ?? false,
      resourceOwnersTypes: a.resourceOwnersTypes ?? [],
      allUsers: a.allUsers ?? false,
      allGroups: a.allGroups ?? false,
    },
    criteria: criteriaOf(info.resources),
    editable: info.editable ?? true,
    info: value as Record<string, unknown>,
  };
}

/** The 400 checks of a value that passed the schema: every privilege and filter field is known. */
export function checkPolicyNames(urn: string, value: unknown): void {
  toPolicy(urn, value);
}
