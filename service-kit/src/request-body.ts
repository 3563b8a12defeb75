// Request bodies, read the same way by every door: raw-body with the configured cap (MAX_BODY_BYTES),
// which trusts a Content-Length to refuse early and stops reading once the cap is passed.
import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { badRequest, CatalogError } from '@lineage/catalog/model';

/** The body as UTF-8 text; payloadTooLarge (413) beyond `limitBytes`, badRequest when it cannot be read. */
export async function readBodyText(req: IncomingMessage, limitBytes: number): Promise<string> {
  try {
    return await getRawBody(req, { limit: limitBytes, encoding: 'utf8', length: req.headers['content-length'] });
  } catch (e) {
    if ((e as { type?: string }).type === 'entity.too.large') throw new CatalogError('payloadTooLarge', `Request body is larger than ${limitBytes} bytes`);
    throw badRequest(`Could not read the request body: ${(e as Error).message}`);
  }
}
