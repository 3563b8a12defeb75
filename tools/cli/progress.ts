// Progress of the operator tools' long work, on stderr: a bar redrawn in place on a terminal, a
// plain line every few seconds when stderr is a pipe or a file (a log then shows how far it got),
// nothing with --quiet. One format per tool, written with `[{bar}]`; the plain lines drop the bar.
import cliProgress from 'cli-progress';

export interface Progress {
  start(total: number, value: number, payload?: object): void;
  update(value: number, payload?: object): void;
  setTotal(total: number): void;
  getTotal(): number;
  stop(): void;
}

/** Seconds between plain lines when stderr is not a terminal. */
const PLAIN_LINE_EVERY_S = 10;

const silent: Progress = { start() {}, update() {}, setTotal() {}, getTotal: () => 0, stop() {} };

export function progressBar(format: string, options: { quiet: boolean }): Progress {
  if (options.quiet) return silent;
  const tty = process.stderr.isTTY === true;
  const bar = new cliProgress.SingleBar(
    {
      format: tty ? format : format.replace(/\s*\[\{bar\}\]/, ''),
      etaBuffer: 50,
      hideCursor: tty,
      noTTYOutput: !tty,
      notTTYSchedule: PLAIN_LINE_EVERY_S * 1000,
      // A pipe has its last line already; a terminal keeps the finished bar.
      clearOnComplete: !tty,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  let running = false;
  return {
    start: (total, value, payload) => {
      running = true;
      bar.start(total, value, payload);
    },
    update: (value, payload) => bar.update(value, payload),
    setTotal: (total) => bar.setTotal(total),
    getTotal: () => bar.getTotal(),
    // Stopping twice (a failure after the work ended) must not print the last line again.
    stop: () => {
      if (running) bar.stop();
      running = false;
    },
  };
}
