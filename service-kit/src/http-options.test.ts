import { loadConfig } from '@lineage/catalog/runtime';
import { httpServerOptions, SERVICE_CALL_IDLE_MS } from './http-options.ts';

const limits = { HTTP_REQUEST_TIMEOUT_MS: 120_000, HTTP_HEADERS_TIMEOUT_MS: 20_000, HTTP_KEEP_ALIVE_TIMEOUT_MS: 65_000 };

test('httpServerOptions: headers timeout never exceeds the request timeout; the check runs often enough', () => {
  expect(httpServerOptions(limits)).toEqual({
    requestTimeout: 120_000,
    headersTimeout: 20_000,
    keepAliveTimeout: 65_000,
    connectionsCheckingInterval: 5_000,
  });
  expect(httpServerOptions({ ...limits, HTTP_REQUEST_TIMEOUT_MS: 1_000 })).toEqual({
    requestTimeout: 1_000,
    headersTimeout: 1_000,
    keepAliveTimeout: 65_000,
    connectionsCheckingInterval: 250,
  });
});

test('calls between services give up an idle connection well before the default keep-alive of a service closes it', () => {
  const defaults = loadConfig({
    NEO4J_URI: 'bolt://127.0.0.1:7687',
    DATAHUB_TOKEN_SERVICE_SIGNING_KEY: 'k'.repeat(16),
    DATAHUB_TOKEN_SERVICE_SALT: 's'.repeat(8),
  });
  expect(SERVICE_CALL_IDLE_MS).toBeLessThanOrEqual(defaults.HTTP_KEEP_ALIVE_TIMEOUT_MS / 2);
});
