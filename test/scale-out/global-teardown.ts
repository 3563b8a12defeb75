import baseGlobalTeardown from '../support/global-teardown.ts';
import type { ScaleOut } from './global-setup.ts';

export default async function globalTeardown(): Promise<void> {
  const scaleOut = (globalThis as { __SCALE_OUT__?: ScaleOut }).__SCALE_OUT__;
  if (scaleOut) {
    const counts = scaleOut.fronts.map((f) => f.counts.join('/'));
    process.stderr.write(`[scale-out] requests per replica through the gateway front ${counts[0]}, the subgraph front ${counts[1]}\n`);
    for (const f of scaleOut.fronts) await f.close();
    await scaleOut.stack.stop();
  }
  await baseGlobalTeardown();
}
