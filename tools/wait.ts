// How every harness start waits (tools/stack.ts, tools/neo4j/neo4j-server.ts, tools/postgres.ts,
// test/faults/support.ts): on a condition, polled, for one generous bound, and when it gives up it
// says what it waited for, what it saw last and, for a child process, the tail of its log. On a
// loaded machine (CI's two cores beside pip installs, a Spark JVM and Airflow) a service start took
// more than the 60 s these waits once allowed; a wait that gives up there fails a run for nothing,
// one that never gives up hangs it.
import { existsSync, readFileSync } from 'node:fs';

/** The bound of every harness start unless a caller asks for another; HARNESS_WAIT_MS overrides it. */
export const DEFAULT_WAIT_MS = 5 * 60_000;

/** HARNESS_WAIT_MS from the environment (docs/CONTRIBUTING.md §Toolchain), else {@link DEFAULT_WAIT_MS}. */
export function harnessWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.HARNESS_WAIT_MS;
  if (raw === undefined || raw === '') return DEFAULT_WAIT_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0)
    throw new Error(`HARNESS_WAIT_MS must be a positive whole number of milliseconds, not ${JSON.stringify(raw)}`);
  return ms;
}

/** The last `lines` lines of a log file, or a note that there is none yet. */
export function logTail(file: string, lines = 40): string {
  if (!existsSync(file)) return `(no log at ${file} yet)`;
  const text = readFileSync(file, 'utf8').trimEnd();
  return text ? text.split('\n').slice(-lines).join('\n') : `(${file} is empty)`;
}

/** What one look at the condition found: met (with a value), or not yet and why. */
export type Probe<T> = { met: true; value: T } | { met: false; saw: string };

export interface WaitOptions {
  /** Default {@link harnessWaitMs}. */
  timeoutMs?: number;
  /** Pause between looks; default 300 ms. */
  intervalMs?: number;
  /** Why waiting is pointless now (the process exited), or undefined while it may still come. */
  gone?: () => string | undefined;
  /** A log whose tail goes into the error (the process being waited for writes it). */
  logFile?: string;
}

/**
 * Looks at `probe` until it is met, `gone` names a reason, or the bound passes. A probe that throws
 * counts as not yet, its message as what was seen. Rejects with an error naming `what`.
 */
export async function waitFor<T>(what: string, probe: (remainingMs: number) => Promise<Probe<T>>, options: WaitOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? harnessWaitMs();
  const intervalMs = options.intervalMs ?? 300;
  const started = Date.now();
  let saw = 'nothing yet (no look finished)';
  let looks = 0;
  const fail = (why: string) => {
    const tail = options.logFile ? `\n--- last lines of ${options.logFile} ---\n${logTail(options.logFile)}` : '';
    return new Error(`${what}: ${why} after ${Date.now() - started} ms and ${looks} looks; last seen: ${saw}${tail}`);
  };
  for (;;) {
    const reason = options.gone?.();
    if (reason) throw fail(reason);
    const remaining = timeoutMs - (Date.now() - started);
    if (remaining <= 0) throw fail(`gave up waiting (bound ${timeoutMs} ms; HARNESS_WAIT_MS raises it)`);
    try {
      const r = await probe(remaining);
      looks++;
      if (r.met) return r.value;
      saw = r.saw;
    } catch (e) {
      looks++;
      saw = describe(e);
    }
    await new Promise((r) => setTimeout(r, Math.min(intervalMs, Math.max(0, timeoutMs - (Date.now() - started)))));
  }
}

/** An error's message with its cause (fetch hides ECONNREFUSED in `cause`). */
function describe(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  const cause = err.cause ? ` (${err.cause.code ?? err.cause.message ?? String(err.cause)})` : '';
  return `${err.name === 'Error' ? '' : `${err.name}: `}${err.message ?? String(e)}${cause}`;
}

/** Longest a single look may take: a server that accepts and never answers must not stall the wait. */
const LOOK_MS = 15_000;

/** Waits until GET `url` answers 2xx; the response body is always read off so no connection stays busy. */
export async function waitForHttpOk(what: string, url: string, options: WaitOptions = {}): Promise<void> {
  await waitFor(
    `${what} (GET ${url} answering 2xx)`,
    async (remaining) => {
      // At least a second, even at the end of the bound: a last look cut short would report only its own timeout.
      const res = await fetch(url, { signal: AbortSignal.timeout(Math.max(1_000, Math.min(LOOK_MS, remaining))) });
      // An unread body keeps the connection busy, and a busy connection blocks the service's graceful
      // shutdown (server.close waits for it) when the harness stops it.
      const body = (await res.text()).slice(0, 300);
      return res.ok ? { met: true, value: undefined } : { met: false, saw: `HTTP ${res.status} ${body}` };
    },
    options,
  );
}

/** For `gone`: the exit of a child process, once it has exited. */
export function exitOf(child: { exitCode: number | null; signalCode: NodeJS.Signals | null }): string | undefined {
  if (child.exitCode !== null) return `the process exited with code ${child.exitCode}`;
  if (child.signalCode !== null) return `the process was ended by ${child.signalCode}`;
  return undefined;
}
