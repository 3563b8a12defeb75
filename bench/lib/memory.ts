// Memory accounting per workload: peak RSS of every process (VmHWM, reset before each workload
// through /proc/<pid>/clear_refs) and the Neo4j JVM heap (sampled over JMX while the workload runs).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Driver } from 'neo4j-driver';

export interface ProcMem {
  rssMb: number;
  hwmMb: number;
}

export function procMem(pid: number): ProcMem | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: Math.round(kb('VmRSS') / 1024), hwmMb: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}

/** Resets the peak-RSS counter (Linux ≥ 4.0, own processes only). */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Direct children of a process (the services the stack spawned). */
export function childPids(ppid: number): Array<{ pid: number; cmdline: string }> {
  const out: Array<{ pid: number; cmdline: string }> = [];
  for (const name of readdirSafe('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== ppid) continue;
      out.push({ pid: Number(name), cmdline: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim() });
    } catch {
      /* exited */
    }
  }
  return out;
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

async function neo4jHeapMb(driver: Driver): Promise<{ usedMb: number; committedMb: number; maxMb: number } | null> {
  try {
    const r = await driver.executeQuery(
      "CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes RETURN attributes.HeapMemoryUsage.value.properties AS heap",
      {},
      { database: 'neo4j' },
    );
    const h = r.records[0]?.get('heap') as Record<string, { toNumber?: () => number } | number> | undefined;
    if (!h) return null;
    const n = (v: unknown) => Math.round((typeof v === 'number' ? v : (v as { toNumber(): number }).toNumber()) / 1048576);
    return { usedMb: n(h.used), committedMb: n(h.committed), maxMb: n(h.max) };
  } catch {
    return null;
  }
}

export interface WatchedProcess {
  name: string;
  pid: number;
}

/** CPU seconds (user + system) a process has used so far: noise-robust cost on a shared machine. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields after the comm: state(0) … utime(11) stime(12), in clock ticks (100 Hz on Linux).
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * CPU seconds per thread group of a process (/proc/<pid>/task/*): for the Neo4j JVM this splits
 * query execution (neo4j.BoltWorker) from the JIT compilers (C1/C2 CompilerThread), GC and the
 * rest. Thread names are folded: trailing numbers dropped, "GC Thread#3" → "GC Thread#".
 */
export function threadCpuSeconds(pid: number): Record<string, number> {
  const groups: Record<string, number> = {};
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return groups;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/(?<=[A-Za-z ])[0-9]+$|#[0-9]+/g, '#');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      groups[name] = (groups[name] ?? 0) + (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      // the thread ended meanwhile (its CPU then no longer shows: the split is approximate)
    }
  }
  return groups;
}

export interface WorkloadMemory {
  /** Peak RSS per process during the workload (MB). */
  peakRssMb: Record<string, number>;
  /** CPU seconds each process used during the workload. */
  cpuSec: Record<string, number>;
  /** CPU seconds per Neo4j thread group during the workload (threadCpuSeconds). */
  neo4jThreadsSec?: Record<string, number>;
  wallSec: number;
  /** Largest sampled Neo4j heap use (MB) and the heap size. */
  neo4jHeapPeakMb: number | null;
  neo4jHeapMaxMb: number | null;
  samples: number;
}

/** Resets peaks at start, samples the heap every intervalMs, and reports at stop(). */
export function watchMemory(procs: () => WatchedProcess[], driver: Driver, intervalMs = 1000) {
  const cpu0: Record<string, number> = {};
  const neo4jPid = procs().find((p) => p.name === 'neo4j')?.pid;
  const threads0 = neo4jPid === undefined ? {} : threadCpuSeconds(neo4jPid);
  for (const p of procs()) {
    resetPeak(p.pid);
    const c = cpuSeconds(p.pid);
    if (c !== null) cpu0[p.name] = c;
  }
  const t0 = performance.now();
  let heapPeak: number | null = null;
  let heapMax: number | null = null;
  let samples = 0;
  let busy = false;
  const rssPeak: Record<string, number> = {};
  const sample = async () => {
    if (busy) return;
    busy = true;
    try {
      for (const p of procs()) {
        const m = procMem(p.pid);
        if (m) rssPeak[p.name] = Math.max(rssPeak[p.name] ?? 0, m.hwmMb, m.rssMb);
      }
      const h = await neo4jHeapMb(driver);
      if (h) {
        heapPeak = Math.max(heapPeak ?? 0, h.usedMb);
        heapMax = h.maxMb;
      }
      samples++;
    } finally {
      busy = false;
    }
  };
  void sample();
  const timer = setInterval(() => void sample(), intervalMs);
  timer.unref();
  return {
    async stop(): Promise<WorkloadMemory> {
      clearInterval(timer);
      while (busy) await new Promise((r) => setTimeout(r, 20));
      await sample();
      const cpuSec: Record<string, number> = {};
      for (const p of procs()) {
        const c = cpuSeconds(p.pid);
        if (c !== null && cpu0[p.name] !== undefined) cpuSec[p.name] = Math.round((c - cpu0[p.name]!) * 100) / 100;
      }
      const neo4jThreadsSec: Record<string, number> = {};
      if (neo4jPid !== undefined) {
        for (const [name, sec] of Object.entries(threadCpuSeconds(neo4jPid))) {
          const d = Math.round((sec - (threads0[name] ?? 0)) * 100) / 100;
          if (d >= 0.5) neo4jThreadsSec[name] = d;
        }
      }
      return {
        peakRssMb: { ...rssPeak },
        cpuSec,
        neo4jThreadsSec,
        wallSec: Math.round((performance.now() - t0) / 100) / 10,
        neo4jHeapPeakMb: heapPeak,
        neo4jHeapMaxMb: heapMax,
        samples,
      };
    },
  };
}
