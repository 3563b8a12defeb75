// Request bodies, read the same way by every door: raw-body with the configured cap (MAX_BODY_BYTES),
// which trusts a Content-Length to refuse early and stops reading once the cap is passed. A body
// sent with `Content-Encoding: gzip` (or deflate) is inflated on the way, the cap then counting the
// inflated bytes, so a small compressed body cannot grow past it.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import getRawBody from 'raw-body';
import { badRequest, CatalogError } from '@lineage/catalog/model';
import { withoutGmsPrefix } from './gms-prefix.ts';
import { isOpenLineagePath } from './openlineage-paths.ts';

/** The 413 message of every door: it names the setting an operator raises (docs/wire-contract.md §Limits). */
const bodyTooLargeMessage = (limitBytes: number) => `Request body is larger than ${limitBytes} bytes (MAX_BODY_BYTES)`;

/**
 * The 413 a GMS path answers, in the body format of its door: `{"error"}` on the OpenAPI and
 * OpenLineage paths, Rest.li's error body elsewhere. The front door answers it itself for a body
 * it knows is too large, so the client never depends on how the service's early answer races the
 * upload.
 */
export function gmsBodyTooLargeAnswer(path: string, limitBytes: number): { status: 413; body: Record<string, unknown> } {
  const message = bodyTooLargeMessage(limitBytes);
  const unprefixed = withoutGmsPrefix(path).path;
  const openApi = /^\/openapi(?:\/|$)/.test(unprefixed) || isOpenLineagePath(unprefixed);
  return {
    status: 413,
    body: openApi
      ? { error: message }
      : { exceptionClass: 'com.linkedin.restli.server.RestLiServiceException', stackTrace: '', message, status: 413 },
  };
}

const DECODERS: Readonly<Record<string, () => Transform>> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate };

/** The body's Content-Encoding, lower-cased; `identity` when none is named. */
const encodingOf = (headers: IncomingHttpHeaders) => (headers['content-encoding'] ?? 'identity').trim().toLowerCase() || 'identity';

/**
 * The length a body will have once read, when the request declares it and sends the body as is
 * (no Content-Encoding); null otherwise: chunked, or compressed (only the inflated size counts
 * against MAX_BODY_BYTES, and only reading tells it).
 */
export function declaredBodyLength(headers: IncomingHttpHeaders): number | null {
  if (encodingOf(headers) !== 'identity' || headers['content-length'] === undefined) return null;
  const length = Number(headers['content-length']);
  return Number.isFinite(length) ? length : null;
}

/** The body as UTF-8 text; payloadTooLarge (413) beyond `limitBytes`, badRequest when it cannot be read or is not UTF-8. */
export async function readBodyText(req: IncomingMessage, limitBytes: number): Promise<string> {
  const encoding = encodingOf(req.headers);
  let source: Readable = req;
  if (encoding !== 'identity') {
    const decoder = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding]! : undefined;
    if (!decoder) throw badRequest(`Unsupported Content-Encoding '${encoding}': send gzip, deflate or none`);
    const inflate = decoder();
    // A corrupt stream errors the inflater; raw-body reports it as a read error (400).
    req.on('error', (e) => inflate.emit('error', e));
    source = req.pipe(inflate);
  }
  let bytes: Buffer;
  try {
    bytes = await getRawBody(source, { limit: limitBytes, length: declaredBodyLength(req.headers) ?? undefined });
  } catch (e) {
    if ((e as { type?: string }).type === 'entity.too.large') {
      throw new CatalogError('payloadTooLarge', bodyTooLargeMessage(limitBytes));
    }
    throw badRequest(`Could not read the request body: ${(e as Error).message}`);
  }
  return decodeUtf8(bytes);
}

/**
 * Strict UTF-8: a lenient decoder turns every invalid byte into U+FFFD, so two different names
 * (0xFF vs 0xFE) would become one urn. The error gives the offset of the first bad byte.
 */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw badRequest(`Request body is not valid UTF-8 (first invalid byte at offset ${firstInvalidUtf8Offset(bytes)}): send UTF-8 JSON`);
  }
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  // A prefix is valid (an unfinished last sequence allowed) up to the first bad byte and never after
  // it, so a bisection finds it in ~log2(n) decodes instead of a scan per byte.
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}
