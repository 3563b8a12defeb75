// createPolicy / updatePolicy / deletePolicy / listPolicies / getGrantedPrivileges
// (docs/wire-contract.md §Auth, "Policies"): GraphQL's PolicyUpdateInput ↔ the stored
// dataHubPolicyInfo (its name is displayName), the rest in the catalog's policy operations.
import {
  createPolicy,
  deletePolicy,
  grantedPrivilegesOf,
  listPolicies,
  updatePolicy,
  type ListPoliciesInput,
} from '@lineage/catalog/operations';
import type { Policy } from '@lineage/catalog/model';
import type { RequestContext } from '../context.ts';

interface PolicyUpdateInput {
  name: string;
  description?: string | null;
  [field: string]: unknown;
}

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
    listPolicies: async (_: unknown, { input }: { input: ListPoliciesInput }, ctx: RequestContext) => {
      const page = await listPolicies(ctx.store, ctx.actor, input);
      return { ...page, policies: page.policies.map(renderPolicy) };
    },
    getGrantedPrivileges: async (
      _: unknown,
      { input }: { input: { actorUrn: string; resourceSpec?: { resourceUrn: string } | null } },
      ctx: RequestContext,
    ) => ({ privileges: await grantedPrivilegesOf(ctx.store, ctx.actor, input.actorUrn, input.resourceSpec?.resourceUrn) }),
  },
  Mutation: {
    createPolicy: (_: unknown, { input }: { input: PolicyUpdateInput }, ctx: RequestContext) =>
      createPolicy(ctx.store, ctx.actor, infoOf(input)),
    updatePolicy: (_: unknown, { urn, input }: { urn: string; input: PolicyUpdateInput }, ctx: RequestContext) =>
      updatePolicy(ctx.store, ctx.actor, urn, infoOf(input)),
    deletePolicy: (_: unknown, { urn }: { urn: string }, ctx: RequestContext) => deletePolicy(ctx.store, ctx.actor, urn),
  },
};
