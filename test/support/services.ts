// Starts real service apps (factories) on ephemeral ports against the run's Neo4j, and mints real
// tokens through the token store, for HTTP-level tests.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { loadConfig, type Config } from '../../catalog/src/runtime/config.ts';
import { createLogger } from '../../catalog/src/runtime/logger.ts';
import { issueAccessToken } from '../../catalog/src/operations/auth/access-tokens.ts';
import { writeAspects } from '../../catalog/src/write/aspect-writer.ts';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import type { Store } from '../../catalog/src/store/store.ts';
import { createIngestionApp } from '../../ingestion-service/src/app.ts';
import { testStore } from './context.ts';
import { externalFront } from './external-stack.ts';

export const TEST_SECRETS = { signingKey: 'test-signing-key-0123456789abcdef', salt: 'test-salt-0123' };

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NEO4J_URI: process.env.TEST_NEO4J_URI,
    ...(process.env.TEST_NEO4J_USER ? { NEO4J_USER: process.env.TEST_NEO4J_USER, NEO4J_PASSWORD: process.env.TEST_NEO4J_PASSWORD } : {}),
    DATAHUB_TOKEN_SERVICE_SIGNING_KEY: TEST_SECRETS.signingKey,
    DATAHUB_TOKEN_SERVICE_SALT: TEST_SECRETS.salt,
    LOG_LEVEL: 'silent',
    ...overrides,
  });
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface RunningIngestion {
  baseUrl: string;
  store: Store;
  config: Config;
  close(): Promise<void>;
}

export async function startIngestion(overrides: Record<string, string> = {}): Promise<RunningIngestion> {
  const store = testStore();
  const config = testConfig(overrides);
  const front = externalFront(overrides);
  if (front) return { baseUrl: `${front.gatewayUrl}/api/gms`, store, config, close: () => store.close() };
  const app = createIngestionApp({ store, config, logger: createLogger('test', 'silent') });
  const server = app.listen();
  await new Promise<void>((r) => server.once('listening', () => r()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    store,
    config,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await store.close();
    },
  };
}

/** A real, stored personal access token for a user with the given DataHub role. */
export async function tokenFor(store: Store, userUrn: string, role?: 'Admin' | 'Editor' | 'Reader'): Promise<string> {
  if (role) {
    await writeAspects(
      store,
      [
        {
          urn: parseUrn(userUrn),
          aspectName: 'roleMembership',
          changeType: 'UPSERT',
          value: { roles: [`urn:li:dataHubRole:${role}`] },
        },
      ],
      { actor: 'urn:li:corpuser:__datahub_system', existenceMode: 'relaxed' },
    );
  }
  const t = await issueAccessToken(store, TEST_SECRETS, { actorUrn: userUrn, ownerUrn: userUrn, name: 'test', duration: 'ONE_DAY' });
  return t.accessToken;
}
