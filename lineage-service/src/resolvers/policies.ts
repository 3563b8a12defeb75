// createPolicy / updatePolicy / deletePolicy / listPolicies / getGrantedPrivileges
// (docs/wire-contract.md §Auth, "Policies"): GraphQL's PolicyUpdateInput ↔ the stored
// dataHubPolicyInfo (its name is displayName), the rest in the catalog's policy operations.
import { createPolicy, deletePolicy, grantedPrivilegesOf, listPolicies, updatePolicy } from '@lineage/catalog/operations';
import type { Policy } from '@lineage/catalog/model';
import type { MutationResolvers, PolicyUpdateInput, QueryResolvers } from '../generated/schema-types.ts';

/** The stored value of a GraphQL policy input: DataHub's resolver maps `name` to `displayName`. */
function infoOf(input: PolicyUpdateInput): Record<string, unknown> {
  const { name, description, ...rest } = input;
  return { ...rest, displayName: name, ...(description ? { description } : {}) };
}

function renderPolicy(p: Policy) {
  const resources = p.info.resources as Record<string, unknown> | null | undefined;
  const filter = resources?.filter as { criteria?: Array<{ field: string; values: string[]; condition?: string }> } | null | undefined;
  return {
    urn: p.urn,
    type: p.type,
    name: p.displayName,
    state: p.state,
    description: p.description,
    privileges: p.privileges,
    actors: p.actors,
    editable: p.editable,
    resources: resources
      ? {
          type: resources.type ?? null,
          resources: resources.resources ?? null,
          allResources: resources.allResources ?? false,
          filter: filter
            ? {
                criteria: (filter.criteria ?? []).map((c) => ({
                  field: c.field,
                  values: c.values.map((value) => ({ value })),
                  condition: c.condition ?? 'EQUALS',
                })),
              }
            : null,
        }
      : null,
  };
}

export const policyResolvers = {
  Query: {
    listPolicies: async (_, { input }, ctx) => {
      const page = await listPolicies(ctx.store, ctx.actor, input);
      return { ...page, policies: page.policies.map(renderPolicy) };
    },
    getGrantedPrivileges: async (_, { input }, ctx) => ({
      privileges: await grantedPrivilegesOf(ctx.store, ctx.actor, input.actorUrn, input.resourceSpec?.resourceUrn),
    }),
  } satisfies QueryResolvers,
  Mutation: {
    createPolicy: (_, { input }, ctx) => createPolicy(ctx.store, ctx.actor, infoOf(input)),
    updatePolicy: (_, { urn, input }, ctx) => updatePolicy(ctx.store, ctx.actor, urn, infoOf(input)),
    deletePolicy: (_, { urn }, ctx) => deletePolicy(ctx.store, ctx.actor, urn),
  } satisfies MutationResolvers,
};
