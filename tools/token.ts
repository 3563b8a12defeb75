// `npm run token -- --actor urn:li:corpuser:datahub [--duration ONE_DAY] [--name NAME]`: mints a
// stored (revocable) personal access token and prints it. Uses NEO4J_URI and the signing settings
// from the environment, else the embedded default's (started by `npm start`).
import { parseArgs } from 'node:util';
import { embeddedEnv, defaultBoltPort } from './embedded.ts';
import { loadConfig } from '../catalog/src/runtime/config.ts';
import { createStore } from '../catalog/src/store/store.ts';
import { issueAccessToken } from '../catalog/src/operations/auth/access-tokens.ts';
import { isAccessTokenDuration } from '../catalog/src/operations/auth/tokens.ts';

const { values } = parseArgs({
  options: {
    actor: { type: 'string', default: 'urn:li:corpuser:datahub' },
    duration: { type: 'string', default: 'ONE_MONTH' },
    name: { type: 'string', default: 'cli token' },
  },
});
if (!isAccessTokenDuration(values.duration)) {
  console.error(`--duration must be one of ONE_HOUR ONE_DAY ONE_WEEK ONE_MONTH THREE_MONTHS SIX_MONTHS ONE_YEAR NO_EXPIRY`);
  process.exit(2);
}
const config = loadConfig(embeddedEnv(process.env.NEO4J_URI ?? `bolt://127.0.0.1:${defaultBoltPort}`));
const store = createStore({ uri: config.NEO4J_URI, user: config.NEO4J_USER, password: config.NEO4J_PASSWORD, database: config.NEO4J_DATABASE, changeLog: config.EVENTS_API_ENABLED });
try {
  if (!(await store.ping())) {
    console.error(`Cannot reach Neo4j at ${config.NEO4J_URI}: start the catalog first (npm start) or set NEO4J_URI.`);
    process.exit(1);
  }
  const t = await issueAccessToken(store, { signingKey: config.DATAHUB_TOKEN_SERVICE_SIGNING_KEY, salt: config.DATAHUB_TOKEN_SERVICE_SALT }, {
    actorUrn: values.actor, ownerUrn: values.actor, name: values.name, duration: values.duration,
  });
  console.log(t.accessToken);
} catch (e) {
  console.error(`token: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await store.close();
}
