// Serves the built explorer page (explorer/dist) from a plain Node http server: the gateway calls
// the returned handler for requests none of its own routes took. Node built-ins only, so the
// production image needs nothing from the explorer's (dev-only) build toolchain.
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Where `npm run build:explorer` writes the page. */
export const DEFAULT_EXPLORER_DIST = fileURLToPath(new URL('./dist/', import.meta.url));

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.map', '.json', '.svg']);

export type NextHandler = () => void;
export type ExplorerHandler = (req: IncomingMessage, res: ServerResponse, next: NextHandler) => void;

interface CachedFile {
  body: Buffer;
  gzip: Buffer | undefined;
  mtimeMs: number;
}

/**
 * A Connect-style `(req, res, next)` handler for GET/HEAD of `/`, `/index.html` and `/assets/*`
 * under `distDir`; everything else (other paths, other methods) goes to `next()`. Hashed assets are
 * cached for a year, index.html is revalidated every time so a rebuild shows at once. When the page
 * has not been built, `/` answers 503 saying how to build it.
 */
export function explorerStaticHandler(distDir: string = DEFAULT_EXPLORER_DIST): ExplorerHandler {
  const root = resolve(distDir);
  const cache = new Map<string, CachedFile>();

  const load = (file: string): CachedFile | undefined => {
    let mtimeMs: number;
    try {
      const st = statSync(file);
      if (!st.isFile()) return undefined;
      mtimeMs = st.mtimeMs;
    } catch {
      return undefined;
    }
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === mtimeMs) return hit;
    const body = readFileSync(file);
    const entry = { body, gzip: COMPRESSIBLE.has(extname(file)) && body.length > 1024 ? gzipSync(body) : undefined, mtimeMs };
    cache.set(file, entry);
    return entry;
  };

  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let path: string;
    try {
      path = decodeURIComponent((req.url ?? '/').split('?')[0]!.split('#')[0]!);
    } catch {
      return next();
    }
    const isPage = path === '/' || path === '/index.html';
    if (!isPage && !path.startsWith('/assets/')) return next();
    const file = resolve(root, `.${isPage ? '/index.html' : path}`);
    // No escaping the dist folder with ../ or an encoded variant of it.
    if (file !== join(root, 'index.html') && !file.startsWith(root + sep)) return next();
    const entry = load(file);
    if (!entry) {
      if (!isPage) return next();
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('The lineage explorer page has not been built: run `npm run build:explorer`.\n');
      return;
    }
    const gzip = entry.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gzip ? entry.gzip! : entry.body;
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': String(body.length),
      'cache-control': isPage ? 'no-cache' : 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      ...(isPage
        ? {
            'content-security-policy':
              "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:; frame-ancestors 'none'",
          }
        : {}),
      ...(entry.gzip ? { vary: 'accept-encoding' } : {}),
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
