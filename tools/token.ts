// `npm run token -- --actor urn:li:corpuser:datahub [--duration ONE_DAY] [--name NAME]`: mints a
// stored (revocable) personal access token and prints it. Uses the Neo4j of --neo4j-uri / NEO4J_URI
// and the signing settings from the environment, else the embedded default's (started by
// `npm start`, secrets in its --data-dir). Flags and exit codes: docs/operators.md (`--help`).
import { Option } from 'commander';
import { embeddedEnv } from './embedded.ts';
import { actorOption, addOptions, createProgram, dataDirOption, EXIT, neo4jOptions, type Neo4jConnection } from './cli/program.ts';
import { changeLogTopicsOf, loadConfig } from '../catalog/src/runtime/config.ts';
import { createStore } from '../catalog/src/store/store.ts';
import { issueAccessToken } from '../catalog/src/operations/auth/access-tokens.ts';
import { accessTokenDurationMs, type AccessTokenDuration } from '../catalog/src/operations/auth/tokens.ts';

interface TokenOptions extends Neo4jConnection {
  actor: string;
  duration: AccessTokenDuration;
  name: string;
  dataDir: string;
}

const values = addOptions(createProgram('token', 'Mint a stored (revocable) personal access token and print it.'), [
  actorOption('whom the token is for (and owned by)'),
  new Option('--duration <duration>', 'how long it is valid').choices(Object.keys(accessTokenDurationMs)).default('ONE_MONTH'),
  new Option('--name <name>', 'its name in the token list').default('cli token'),
  dataDirOption(),
  ...neo4jOptions(),
])
  .parse()
  .opts<TokenOptions>();
// The flags win over the environment, which wins over the embedded defaults.
const config = loadConfig({
  ...embeddedEnv(values.neo4jUri, values.dataDir),
  NEO4J_URI: values.neo4jUri,
  NEO4J_DATABASE: values.neo4jDatabase,
  ...(values.neo4jUser === undefined ? {} : { NEO4J_USER: values.neo4jUser }),
});
const store = createStore({
  uri: config.NEO4J_URI,
  user: config.NEO4J_USER,
  password: config.NEO4J_PASSWORD,
  database: config.NEO4J_DATABASE,
  changeLog: changeLogTopicsOf(config),
});
try {
  if (!(await store.ping())) {
    console.error(`Cannot reach Neo4j at ${config.NEO4J_URI}: start the catalog first (npm start) or set NEO4J_URI.`);
    process.exitCode = EXIT.failure;
  } else {
    const t = await issueAccessToken(
      store,
      { signingKey: config.DATAHUB_TOKEN_SERVICE_SIGNING_KEY, salt: config.DATAHUB_TOKEN_SERVICE_SALT },
      {
        actorUrn: values.actor,
        ownerUrn: values.actor,
        name: values.name,
        duration: values.duration,
      },
    );
    console.log(t.accessToken);
  }
} catch (e) {
  console.error(`token: ${(e as Error).message}`);
  process.exitCode = EXIT.failure;
} finally {
  await store.close();
}
