// The plans behind a GraphQL operation's lineage pages (catalog/src/read/lineage/plan.ts), shown
// when asked: a caller sending `X-Lineage-Plan: true` gets them in the response's
// `extensions.lineagePlans`, one per lineage field resolved, with the strategy that answered it.
// The subgraph adds them to its response; the gateway forwards the header and relays what its
// subgraph answered (Apollo's gateway drops a subgraph's extensions otherwise). Every plan is also
// logged at debug by the subgraph, asked or not.
import type { ApolloServerPlugin } from '@apollo/server';
import type { IncomingMessage } from 'node:http';
import type { Logger } from '@lineage/catalog/runtime';

export const LINEAGE_PLAN_HEADER = 'x-lineage-plan';

/** One lineage field's plan as the response shows it. */
export interface ShownPlan {
  field: string;
  /** What answered the page: database, fast, hops, snapshot or none (LineagePage.strategy). */
  strategy: string;
  plan: unknown;
}

/** What a context carries for the plugins below. */
export interface PlanCarrier {
  /** The caller asked to see the plans. */
  explainLineage: boolean;
  /** Plans recorded by the resolvers (subgraph) or relayed from subgraphs (gateway). */
  lineagePlans: ShownPlan[];
}

/** Whether the request asks to see its lineage plans. */
export function asksForLineagePlans(req: IncomingMessage): boolean {
  return (
    String(req.headers[LINEAGE_PLAN_HEADER] ?? '')
      .trim()
      .toLowerCase() === 'true'
  );
}

/**
 * Adds the recorded plans to the response when asked. Must come after dataHubEnvelopePlugin in the
 * plugin list: that one resets `extensions` to DataHub's `{}`.
 */
export function lineagePlanPlugin<C extends PlanCarrier>(logger?: Logger): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          const plans = contextValue.lineagePlans;
          if (plans.length === 0) return;
          logger?.debug({ lineagePlans: plans }, 'lineage plans');
          if (!contextValue.explainLineage || response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, lineagePlans: plans };
        },
      };
    },
  };
}

/** The plans in a subgraph's response body (gateway side); [] when there are none. */
export function plansOfSubgraphResponse(extensions: Record<string, unknown> | undefined): ShownPlan[] {
  const plans = extensions?.lineagePlans;
  return Array.isArray(plans) ? (plans as ShownPlan[]) : [];
}
