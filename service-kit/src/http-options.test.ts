import { httpServerOptions } from './http-options.ts';

test('httpServerOptions: headers timeout never exceeds the request timeout; the check runs often enough', () => {
  expect(httpServerOptions({ HTTP_REQUEST_TIMEOUT_MS: 120_000, HTTP_HEADERS_TIMEOUT_MS: 20_000 }))
    .toEqual({ requestTimeout: 120_000, headersTimeout: 20_000, connectionsCheckingInterval: 5_000 });
  expect(httpServerOptions({ HTTP_REQUEST_TIMEOUT_MS: 1_000, HTTP_HEADERS_TIMEOUT_MS: 20_000 }))
    .toEqual({ requestTimeout: 1_000, headersTimeout: 1_000, connectionsCheckingInterval: 250 });
});
