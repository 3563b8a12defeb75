// Request bodies, read the same way by every door: raw-body with the configured cap (MAX_BODY_BYTES),
// which trusts a Content-Length to refuse early and stops reading once the cap is passed. A body
// sent with `Content-Encoding: gzip` (or deflate) is inflated on the way, the cap then counting the
// inflated bytes, so a small compressed body cannot grow past it.
import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import getRawBody from 'raw-body';
import { badRequest, CatalogError } from '@lineage/catalog/model';

const DECODERS: Readonly<Record<string, () => Transform>> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate };

/** The body as UTF-8 text; payloadTooLarge (413) beyond `limitBytes`, badRequest when it cannot be read. */
export async function readBodyText(req: IncomingMessage, limitBytes: number): Promise<string> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  let source: Readable = req;
  if (encoding !== 'identity' && encoding !== '') {
    const decoder = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding]! : undefined;
    if (!decoder) throw badRequest(`Unsupported Content-Encoding '${encoding}': send gzip, deflate or none`);
    const inflate = decoder();
    // A corrupt stream errors the inflater; raw-body reports it as a read error (400).
    req.on('error', (e) => inflate.emit('error', e));
    source = req.pipe(inflate);
  }
  try {
    const length = source === req ? req.headers['content-length'] : undefined;
    return await getRawBody(source, { limit: limitBytes, encoding: 'utf8', length });
  } catch (e) {
    if ((e as { type?: string }).type === 'entity.too.large') throw new CatalogError('payloadTooLarge', `Request body is larger than ${limitBytes} bytes`);
    throw badRequest(`Could not read the request body: ${(e as Error).message}`);
  }
}
