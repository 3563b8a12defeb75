// GET /openapi/v1/system-info/properties/simple: how a DataHub client learns whether view
// authorization is on (DataHub's SystemInfoController), on the ingestion service and through the
// front door, which relays /openapi/* as DataHub's frontend does.
import { startStack, type Stack } from '../graphql/stack.ts';
import { namespace } from '../support/context.ts';
import { tokenFor } from '../support/services.ts';

const PATH = '/openapi/v1/system-info/properties/simple';
const ns = namespace('sysinfo');

const get = (base: string, token: string | null) => fetch(`${base}${PATH}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe.each([
  ['off by default', {}, 'false'],
  ['on with VIEW_AUTHORIZATION_ENABLED=true', { VIEW_AUTHORIZATION_ENABLED: 'true' }, 'true'],
])('view authorization %s', (_, overrides: Record<string, string>, expected) => {
  let stack: Stack;
  let admin: string, editor: string;
  beforeAll(async () => {
    stack = await startStack(overrides);
    admin = await tokenFor(stack.store, 'urn:li:corpuser:datahub');
    editor = await tokenFor(stack.store, ns.user('editor'), 'Editor');
  });
  afterAll(async () => {
    await stack.close();
  });

  test('an administrator reads authorization.view.enabled, on the ingestion service and through the front door', async () => {
    for (const base of [stack.ingestion.baseUrl, stack.gatewayUrl, `${stack.gatewayUrl}/api/gms`]) {
      const res = await get(base, admin);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ 'authorization.view.enabled': expected, 'authentication.enabled': 'true' });
    }
  });

  test("anyone else: 403 with DataHub's body; no token: 401", async () => {
    const denied = await get(stack.gatewayUrl, editor);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ error: `${ns.user('editor')} is not authorized for system operations.` });
    expect((await get(stack.gatewayUrl, null)).status).toBe(401);
  });
});

test('the front door relays other /openapi/* routes too: the v3 entity door answers through it', async () => {
  const stack = await startStack();
  try {
    const admin = await tokenFor(stack.store, 'urn:li:corpuser:datahub');
    const urn = ns.dataset('relayed');
    const res = await fetch(`${stack.gatewayUrl}/openapi/v3/entity/dataset/${encodeURIComponent(urn)}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const direct = await fetch(`${stack.ingestion.baseUrl}/openapi/v3/entity/dataset/${encodeURIComponent(urn)}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.status).toBe(direct.status);
    expect(await res.text()).toBe(await direct.text());
    expect([404, 200]).toContain(res.status);
  } finally {
    await stack.close();
  }
});
