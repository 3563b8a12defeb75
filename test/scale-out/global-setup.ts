// The scale-out run (npm run test:scale-out, jest.scale-out.config.js): one Neo4j reached through a
// neo4j:// routing URI, two replicas of every service as real processes (tools/stack.ts), and two
// round-robin fronts in this process — one over the gateways, one over the subgraphs. The HTTP
// suites find the fronts through test/support/external-stack.ts; the replicas' own URLs are in
// TEST_REPLICAS for the read-your-writes suite, which picks a replica per request.
import baseGlobalSetup from '../support/global-setup.ts';
import baseGlobalTeardown from '../support/global-teardown.ts';
import { TEST_SECRETS } from '../support/services.ts';
import { FRONT_ENV, SUBGRAPH_FRONT_ENV } from '../support/external-stack.ts';
import { startStack, type RunningStack } from '../../tools/stack.ts';
import { startRoundRobinFront, type RoundRobinFront } from './front.ts';
import { routingUri, SYSTEM_CLIENT } from './read-your-writes.ts';

export const REPLICAS_ENV = 'TEST_REPLICAS';
export const REPLICA_COUNT = 2;

export interface ScaleOut {
  stack: RunningStack;
  fronts: RoundRobinFront[];
}

export default async function globalSetup(): Promise<void> {
  await baseGlobalSetup();
  const t0 = Date.now();
  const uri = routingUri(process.env.TEST_NEO4J_URI!);
  // The suites' own stores (seeding, assertions) go through the routing driver too.
  process.env.TEST_NEO4J_URI = uri;
  let stack: RunningStack;
  try {
    stack = await startStack({
      ephemeral: true,
      neo4jUri: uri,
      replicas: REPLICA_COUNT,
      log: (line) => process.stderr.write(`[scale-out] ${line}\n`),
      env: {
        // Tokens the suites mint (tokenFor) must verify on every replica.
        DATAHUB_TOKEN_SERVICE_SIGNING_KEY: TEST_SECRETS.signingKey,
        DATAHUB_TOKEN_SERVICE_SALT: TEST_SECRETS.salt,
        DATAHUB_SYSTEM_CLIENT_ID: SYSTEM_CLIENT.id,
        DATAHUB_SYSTEM_CLIENT_SECRET: SYSTEM_CLIENT.secret,
        ...(process.env.TEST_NEO4J_USER
          ? { NEO4J_USER: process.env.TEST_NEO4J_USER, NEO4J_PASSWORD: process.env.TEST_NEO4J_PASSWORD ?? '' }
          : {}),
        LOG_LEVEL: 'warn',
      },
      onServiceExit: (name, code) => process.stderr.write(`[scale-out] a ${name} replica exited with code ${code}\n`),
    });
  } catch (e) {
    // Jest skips the teardown when the setup fails: stop the Neo4j the base setup may have started.
    await baseGlobalTeardown();
    throw e;
  }
  const scaleOut: ScaleOut = { stack, fronts: [] };
  (globalThis as { __SCALE_OUT__?: ScaleOut }).__SCALE_OUT__ = scaleOut;
  const gatewayFront = await startRoundRobinFront(stack.replicas.map((r) => r.gatewayUrl));
  const subgraphFront = await startRoundRobinFront(stack.replicas.map((r) => new URL(r.lineageUrl).origin));
  scaleOut.fronts.push(gatewayFront, subgraphFront);
  process.env[FRONT_ENV] = gatewayFront.url;
  process.env[SUBGRAPH_FRONT_ENV] = `${subgraphFront.url}/graphql`;
  process.env[REPLICAS_ENV] = JSON.stringify(stack.replicas);
  process.stderr.write(
    `[scale-out] ${REPLICA_COUNT} replicas of each service on ${uri}, front ${gatewayFront.url}, ready in ${Date.now() - t0} ms\n`,
  );
}
