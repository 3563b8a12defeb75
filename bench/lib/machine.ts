// The machine a result was measured on, as every bench result file records it.
import { cpus, loadavg, totalmem } from 'node:os';

export function machineFacts() {
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? '?',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAvg: loadavg().map((x) => Math.round(x * 100) / 100),
    node: process.version,
  };
}
