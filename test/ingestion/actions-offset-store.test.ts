// Where DataHub Actions' `datahub-cloud` event source keeps its offset (issue 26), over HTTP on a real
// Neo4j: a platformResource entity (urn:li:platformResource:<md5 of the consumer>) whose
// platformResourceInfo aspect holds the offset as a JSON string. acryl-datahub-actions 1.7.0.17
// writes it on a clean stop through the SDK's graph client (Rest.li ingestProposal, or OpenAPI v3
// when the client chose OpenAPI ingestion) and reads it at start with get_aspect: GET
// /aspects/{urn}?aspect=platformResourceInfo&version=0, a 404 meaning "no offset", the value under
// the record's full name. The interop suite runs the real source (test/interop/test_actions.py).
import { createHash } from 'node:crypto';
import { startIngestion, tokenFor, type RunningIngestion } from '../support/services.ts';
import { namespace } from '../support/context.ts';

let svc: RunningIngestion;
let admin: string;
const ns = namespace('offsets');
const FQCN = 'com.linkedin.platformresource.PlatformResourceInfo';

/** The source's urn for a consumer: mce_builder.datahub_guid of {consumer_id, platform, state_resource_name}. */
function stateUrn(consumerId: string): string {
  const key = JSON.stringify({ consumer_id: consumerId, platform: 'urn:li:dataPlatform:datahub', state_resource_name: 'state' });
  return `urn:li:platformResource:${createHash('md5').update(key).digest('hex')}`;
}

/** platformResourceInfo as the source writes it: the consumer state is JSON text in `blob`. */
function offsetAspect(consumerId: string, offsetId: string, timestamp: number) {
  return {
    resourceType: 'eventConsumerState',
    primaryKey: consumerId,
    value: {
      blob: JSON.stringify({ VERSION: 1, offset_id: offsetId, timestamp }),
      contentType: 'JSON',
      schemaType: 'JSON',
      schemaRef: 'EventConsumerState@1',
    },
  };
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    Authorization: `Bearer ${admin}`,
    'X-RestLi-Protocol-Version': '2.0.0',
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(svc.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const readOffset = (urn: string) => call('GET', `/aspects/${encodeURIComponent(urn)}?aspect=platformResourceInfo&version=0`);

function restliWrite(urn: string, aspect: unknown) {
  return call('POST', '/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'platformResource',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'platformResourceInfo',
      aspect: { value: JSON.stringify(aspect), contentType: 'application/json' },
      systemMetadata: { lastObserved: Date.now(), runId: 'no-run-id-provided' },
    },
    async: 'false',
  });
}

function openapiWrite(urn: string, aspect: unknown) {
  return call('POST', '/openapi/v3/entity/platformResource?async=false', [
    {
      urn,
      platformResourceInfo: { value: aspect, systemMetadata: { lastObserved: Date.now(), runId: 'no-run-id-provided' }, headers: {} },
    },
  ]);
}

beforeAll(async () => {
  svc = await startIngestion();
  admin = await tokenFor(svc.store, 'urn:li:corpuser:datahub');
});
afterAll(async () => {
  await svc.close();
});

describe.each([
  ['Rest.li ingestProposal', restliWrite],
  ['OpenAPI v3', openapiWrite],
])("the source's offset written through %s", (door, write) => {
  const consumer = `urn:li:dataHubAction:${ns.platform}_${door.replace(/\W/g, '')}`;
  const urn = stateUrn(consumer);

  test('is absent (404) until the first stop, then read back verbatim under its full record name', async () => {
    expect((await readOffset(urn)).status).toBe(404);
    const first = offsetAspect(consumer, 'eyJQbGF0Zm9ybUV2ZW50X3YxLTAiOjQyfQ==', 1764143000);
    expect((await write(urn, first)).status).toBe(200);
    const r = await readOffset(urn);
    expect(r.status).toBe(200);
    expect(r.body.aspect).toEqual({ [FQCN]: first });
    expect(r.body.version).toBe(0);
  });

  test('the next stop replaces it; version 0 is the newest', async () => {
    const next = offsetAspect(consumer, 'eyJQbGF0Zm9ybUV2ZW50X3YxLTAiOjQzfQ==', 1764143100);
    expect((await write(urn, next)).status).toBe(200);
    expect((await readOffset(urn)).body.aspect).toEqual({ [FQCN]: next });
  });
});
