import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_WAIT_MS, harnessWaitMs, logTail, waitFor, waitForHttpOk } from './wait.ts';

test('HARNESS_WAIT_MS sets the bound; unset it is five minutes; anything but a positive integer is refused', () => {
  expect(harnessWaitMs({})).toBe(DEFAULT_WAIT_MS);
  expect(DEFAULT_WAIT_MS).toBe(300_000);
  expect(harnessWaitMs({ HARNESS_WAIT_MS: '900000' })).toBe(900_000);
  expect(() => harnessWaitMs({ HARNESS_WAIT_MS: '5m' })).toThrow(/HARNESS_WAIT_MS must be a positive whole number/);
  expect(() => harnessWaitMs({ HARNESS_WAIT_MS: '0' })).toThrow(/HARNESS_WAIT_MS/);
});

test('waitFor looks until the condition is met and answers its value', async () => {
  let looks = 0;
  const value = await waitFor(
    'the third look',
    async () => (++looks < 3 ? { met: false, saw: `look ${looks}` } : { met: true, value: 'ready' }),
    { intervalMs: 1 },
  );
  expect([value, looks]).toEqual(['ready', 3]);
});

test('giving up names what it waited for, the bound, the last thing seen and the tail of the log', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wait-test-'));
  const logFile = join(dir, 'service.log');
  writeFileSync(logFile, Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n') + '\n');
  let looks = 0;
  const failed = waitFor(
    'the service to answer',
    async () => {
      looks++;
      if (looks % 2) throw new Error('connect refused', { cause: { code: 'ECONNREFUSED' } });
      return { met: false, saw: `HTTP 503 look ${looks}` };
    },
    { timeoutMs: 60, intervalMs: 5, logFile },
  );
  const error = await failed.catch((e: Error) => e.message);
  expect(error).toMatch(
    /^the service to answer: gave up waiting \(bound 60 ms; HARNESS_WAIT_MS raises it\) after \d+ ms and \d+ looks; last seen: /,
  );
  expect(error).toMatch(/last seen: (HTTP 503 look \d+|connect refused \(ECONNREFUSED\))\n/);
  expect(error).toContain(`--- last lines of ${logFile} ---\nline 10\n`);
  expect(error).toMatch(/line 49$/);
  expect(error).not.toContain('line 9\n');
});

test('a process that is gone ends the wait at once, with its reason', async () => {
  let looks = 0;
  const error = await waitFor(
    'neo4j',
    async () => {
      looks++;
      return { met: false, saw: 'port closed' };
    },
    {
      intervalMs: 1,
      gone: () => (looks >= 2 ? 'the process exited with code 3' : undefined),
    },
  ).catch((e: Error) => e.message);
  expect(error).toMatch(/^neo4j: the process exited with code 3 after \d+ ms and 2 looks; last seen: port closed$/);
});

test('logTail says when there is no log yet', () => {
  expect(logTail('/nonexistent/x.log')).toBe('(no log at /nonexistent/x.log yet)');
});

test('waitForHttpOk waits through non-2xx answers and names the last one when it gives up', async () => {
  let calls = 0;
  const server = createServer((_req, res) => {
    calls++;
    res.statusCode = calls < 3 ? 503 : 200;
    res.end(calls < 3 ? '{"status":"unavailable"}' : '{"status":"ok"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  try {
    await waitForHttpOk('the test server', `http://127.0.0.1:${port}/health`, { intervalMs: 5 });
    expect(calls).toBe(3);
    calls = -1_000_000;
    const error = await waitForHttpOk('the test server', `http://127.0.0.1:${port}/health`, { intervalMs: 100, timeoutMs: 1_000 }).catch(
      (e: Error) => e.message,
    );
    expect(error).toMatch(
      /^the test server \(GET http:\/\/127\.0\.0\.1:\d+\/health answering 2xx\): gave up waiting .* last seen: HTTP 503 \{"status":"unavailable"\}$/,
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
