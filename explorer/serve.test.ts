import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { explorerStaticHandler } from './serve.ts';

let dir: string;
let server: Server;
let base: string;

async function start(distDir: string): Promise<void> {
  const handler = explorerStaticHandler(distDir);
  server = createServer((req, res) =>
    handler(req, res, () => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('next');
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const stop = () => new Promise<void>((r) => server.close(() => r()));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'explorer-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Lineage explorer</title>');
  writeFileSync(join(dir, 'assets', 'index-abc.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
  writeFileSync(join(dir, '..', 'explorer-secret.txt'), 'no');
  await start(dir);
});
afterAll(async () => {
  await stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(join(dir, '..', 'explorer-secret.txt'), { force: true });
});

test('the page at / and /index.html, revalidated on every load', async () => {
  for (const path of ['/', '/index.html', '/?x=1']) {
    const r = await fetch(base + path);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-cache');
    expect(await r.text()).toContain('Lineage explorer');
  }
});

test('hashed assets are cached for good and gzipped when asked', async () => {
  const plain = await fetch(`${base}/assets/index-abc.js`, { headers: { 'accept-encoding': 'identity' } });
  expect(plain.status).toBe(200);
  expect(plain.headers.get('cache-control')).toContain('immutable');
  expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  const body = await plain.text();
  // fetch decodes gzip itself: the same text either way.
  const zipped = await fetch(`${base}/assets/index-abc.js`, { headers: { 'accept-encoding': 'gzip' } });
  expect(zipped.headers.get('content-encoding')).toBe('gzip');
  expect(await zipped.text()).toBe(body);
});

test('everything else goes to next(): other paths, other methods, escapes from the folder, missing assets', async () => {
  expect(await (await fetch(`${base}/api/graphql`)).text()).toBe('next');
  expect(await (await fetch(`${base}/`, { method: 'POST', body: '{}' })).text()).toBe('next');
  expect(await (await fetch(`${base}/assets/..%2f..%2fexplorer-secret.txt`)).text()).toBe('next');
  expect(await (await fetch(`${base}/assets/missing.js`)).text()).toBe('next');
  const head = await fetch(`${base}/`, { method: 'HEAD' });
  expect(head.status).toBe(200);
});

test('an unbuilt page answers 503 with the build command', async () => {
  await stop();
  await start(join(dir, 'not-built'));
  const r = await fetch(`${base}/`);
  expect(r.status).toBe(503);
  expect(await r.text()).toContain('npm run build:explorer');
  expect(await (await fetch(`${base}/assets/x.js`)).text()).toBe('next');
});
