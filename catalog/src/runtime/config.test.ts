import {
  changeLogTopicsFromEnv,
  ConfigError,
  loadConfig,
  loadEmbeddedServerConfig,
  loadGatewayConfig,
  loadIngestionConfig,
  loadLauncherConfig,
  loadLineageConfig,
  loadToolsConfig,
} from './config.ts';

const required = {
  NEO4J_URI: 'bolt://127.0.0.1:7687',
  DATAHUB_TOKEN_SERVICE_SIGNING_KEY: 'k'.repeat(16),
  DATAHUB_TOKEN_SERVICE_SALT: 's'.repeat(8),
};

/** The message of the ConfigError `load` throws. */
function problemsOf(load: () => unknown): string {
  try {
    load();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('no ConfigError');
}

describe('each service validates what it reads and lists every problem', () => {
  const services = { ingestion: loadIngestionConfig, lineage: loadLineageConfig, gateway: loadGatewayConfig };

  test.each(Object.entries(services))('%s: nothing required set → every required variable named at once', (_, load) => {
    const message = problemsOf(() => load({}));
    expect(message).toMatch(/^Invalid configuration:/);
    for (const name of Object.keys(required)) expect(message).toContain(`  ${name}: `);
  });

  test.each(Object.entries(services))('%s: several bad values → each named with its rule', (_, load) => {
    const message = problemsOf(() =>
      load({ ...required, NEO4J_URI: 'http://x', LOG_LEVEL: 'loud', MAX_BODY_BYTES: '-1', METADATA_SERVICE_AUTH_ENABLED: 'maybe' }),
    );
    expect(message).toContain('NEO4J_URI: must be a bolt:// or neo4j:// URI');
    for (const name of ['LOG_LEVEL', 'MAX_BODY_BYTES', 'METADATA_SERVICE_AUTH_ENABLED']) expect(message).toContain(`  ${name}: `);
  });

  test('a bad value of a variable only another process reads stops that process, not this one', () => {
    const badIngestionOnly = { ...required, MAX_BATCH_PROPOSALS: 'many', LINEAGE_EXISTENCE_MODE: 'lenient' };
    expect(problemsOf(() => loadIngestionConfig(badIngestionOnly))).toMatch(/MAX_BATCH_PROPOSALS[\s\S]*LINEAGE_EXISTENCE_MODE/);
    expect(loadLineageConfig(badIngestionOnly).LINEAGE_PORT).toBe(8081);
    expect(loadGatewayConfig(badIngestionOnly).GATEWAY_PORT).toBe(9002);

    const badGraphqlOnly = { ...required, GRAPHQL_MAX_DEPTH: '0' };
    expect(problemsOf(() => loadLineageConfig(badGraphqlOnly))).toContain('GRAPHQL_MAX_DEPTH');
    expect(problemsOf(() => loadGatewayConfig(badGraphqlOnly))).toContain('GRAPHQL_MAX_DEPTH');
    expect(loadIngestionConfig(badGraphqlOnly).INGESTION_PORT).toBe(8080);

    // The gateway writes nothing: the change log's settings are not its business.
    expect(loadGatewayConfig({ ...required, EVENTS_TOPICS: 'Nope', MAX_EDGES_PER_WRITE: 'x' })).not.toHaveProperty('EVENTS_TOPICS');
  });

  test('booleans take only explicit spellings ("false" is false)', () => {
    expect(loadIngestionConfig({ ...required, METADATA_SERVICE_AUTH_ENABLED: 'false', EVENTS_API_ENABLED: 'no' })).toMatchObject({
      METADATA_SERVICE_AUTH_ENABLED: false,
      EVENTS_API_ENABLED: false,
    });
    expect(loadGatewayConfig({ ...required, METADATA_SERVICE_AUTH_ENABLED: '1' }).METADATA_SERVICE_AUTH_ENABLED).toBe(true);
  });

  test('an empty value counts as unset', () => {
    expect(loadLineageConfig({ ...required, LINEAGE_MAX_HOPS: '', NEO4J_USER: '' })).toMatchObject({ LINEAGE_MAX_HOPS: 1000 });
    expect(loadLineageConfig({ ...required, NEO4J_USER: '' }).NEO4J_USER).toBeUndefined();
  });
});

describe('GATEWAY_EXTRA_SUBGRAPHS (the subgraphs the front door composes beside the lineage subgraph)', () => {
  test('unset: none; name=url entries, comma-separated and trimmed, in order', () => {
    expect(loadGatewayConfig(required).GATEWAY_EXTRA_SUBGRAPHS).toBeUndefined();
    expect(loadGatewayConfig(required).GATEWAY_SUBGRAPH_WAIT_MS).toBe(300_000);
    expect(
      loadGatewayConfig({ ...required, GATEWAY_EXTRA_SUBGRAPHS: 'quality=http://q:4001/graphql, cost-team = https://cost.example/graphql' })
        .GATEWAY_EXTRA_SUBGRAPHS,
    ).toEqual([
      { name: 'quality', url: 'http://q:4001/graphql' },
      { name: 'cost-team', url: 'https://cost.example/graphql' },
    ]);
  });

  test('every malformed entry is its own problem, naming the variable', () => {
    const message = problemsOf(() =>
      loadGatewayConfig({
        ...required,
        GATEWAY_EXTRA_SUBGRAPHS: 'http://no-name,1st=http://a/graphql,lineage=http://b/graphql,q=ftp://c,q=http://d/graphql,',
      }),
    );
    expect(message.split('\n').slice(1)).toEqual([
      '  GATEWAY_EXTRA_SUBGRAPHS: entry "http://no-name" is not name=url',
      '  GATEWAY_EXTRA_SUBGRAPHS: subgraph name "1st" must start with a letter and hold only letters, digits, _ and -',
      '  GATEWAY_EXTRA_SUBGRAPHS: subgraph name "lineage" is the catalog\'s own subgraph; choose another',
      '  GATEWAY_EXTRA_SUBGRAPHS: subgraph "q": "ftp://c" is not an http:// or https:// URL',
      '  GATEWAY_EXTRA_SUBGRAPHS: subgraph name "q" appears twice',
      '  GATEWAY_EXTRA_SUBGRAPHS: entry "" is not name=url',
    ]);
    expect(problemsOf(() => loadGatewayConfig({ ...required, GATEWAY_SUBGRAPH_WAIT_MS: '0' }))).toContain('  GATEWAY_SUBGRAPH_WAIT_MS: ');
  });

  test('only the gateway reads it', () => {
    expect(loadLineageConfig({ ...required, GATEWAY_EXTRA_SUBGRAPHS: 'broken' })).not.toHaveProperty('GATEWAY_EXTRA_SUBGRAPHS');
  });
});

describe('the operator tools and the launcher', () => {
  test('the tools need no token keys and fall back on the embedded server', () => {
    expect(loadToolsConfig({})).toMatchObject({ NEO4J_URI: 'bolt://127.0.0.1:7687', NEO4J_DATABASE: 'neo4j', EVENTS_API_ENABLED: true });
    expect(loadToolsConfig({ NEO4J_BOLT_PORT: '7699' }).NEO4J_URI).toBe('bolt://127.0.0.1:7699');
    expect(loadToolsConfig({ NEO4J_URI: 'neo4j+s://db.example:7687' }).NEO4J_URI).toBe('neo4j+s://db.example:7687');
    // Keys given are still held to the services' rules, so a token minted here verifies there.
    const message = problemsOf(() => loadToolsConfig({ DATAHUB_TOKEN_SERVICE_SIGNING_KEY: 'short', NEO4J_URI: 'http://x' }));
    expect(message).toContain('DATAHUB_TOKEN_SERVICE_SIGNING_KEY: must be at least 16 characters');
    expect(message).toContain('NEO4J_URI: must be a bolt:// or neo4j:// URI');
  });

  test('the embedded server: its port checked, its data directory optional', () => {
    expect(loadEmbeddedServerConfig({})).toEqual({ NEO4J_BOLT_PORT: 7687 });
    expect(problemsOf(() => loadEmbeddedServerConfig({ NEO4J_BOLT_PORT: 'seven' }))).toContain('NEO4J_BOLT_PORT');
  });

  test("the launcher reads the wiring, not the services' limits", () => {
    expect(loadLauncherConfig({ ...required, GRAPHQL_MAX_DEPTH: 'deep' })).toMatchObject({
      INGESTION_PORT: 8080,
      LINEAGE_PORT: 8081,
      GATEWAY_PORT: 9002,
    });
    expect(problemsOf(() => loadLauncherConfig({ ...required, LINEAGE_PORT: '70000' }))).toContain('LINEAGE_PORT');
  });

  test('loadConfig still checks every variable any service reads', () => {
    const message = problemsOf(() =>
      loadConfig({ ...required, MAX_BATCH_PROPOSALS: 'x', GRAPHQL_MAX_DEPTH: 'x', LINEAGE_URL: 'not a url' }),
    );
    for (const name of ['MAX_BATCH_PROPOSALS', 'GRAPHQL_MAX_DEPTH', 'LINEAGE_URL']) expect(message).toContain(`  ${name}: `);
  });
});

describe('changeLogTopicsFromEnv (what an operator CLI records)', () => {
  test('both topics by default, none when the Events API is off, the named ones otherwise', () => {
    expect(changeLogTopicsFromEnv({})).toEqual(['PlatformEvent_v1', 'MetadataChangeLog_Versioned_v1']);
    expect(changeLogTopicsFromEnv({ EVENTS_API_ENABLED: 'false', EVENTS_TOPICS: 'PlatformEvent_v1' })).toEqual([]);
    expect(changeLogTopicsFromEnv({ EVENTS_TOPICS: ' PlatformEvent_v1 ' })).toEqual(['PlatformEvent_v1']);
  });

  test('an unknown topic is refused as the services refuse it, naming the variable', () => {
    expect(() => changeLogTopicsFromEnv({ EVENTS_TOPICS: 'PlatformEvent_v1,Nope' })).toThrow(ConfigError);
    expect(() => changeLogTopicsFromEnv({ EVENTS_TOPICS: 'Nope' })).toThrow(/EVENTS_TOPICS/);
    expect(() => loadIngestionConfig({ ...required, EVENTS_TOPICS: 'Nope' })).toThrow(/EVENTS_TOPICS/);
  });
});
