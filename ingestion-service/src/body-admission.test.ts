import { bodyWeight, createByteGate } from './body-admission.ts';

const MiB = 1024 * 1024;
const tick = () => new Promise((r) => setImmediate(r));

test('requests that fit together are admitted at once; a request past the budget waits for a release', async () => {
  const gate = createByteGate(16 * MiB);
  const a = await gate.admit(10 * MiB, 1_000);
  const b = await gate.admit(6 * MiB, 1_000);
  expect(a && b).toBeTruthy();
  let third: (() => void) | null | undefined;
  void gate.admit(1, 1_000).then((r) => {
    third = r;
  });
  await tick();
  expect(third).toBeUndefined();
  expect(gate.load()).toEqual({ admitted: 16 * MiB, waiting: 1 });
  a!();
  await tick();
  expect(third).toBeInstanceOf(Function);
  expect(gate.load()).toEqual({ admitted: 6 * MiB + 1, waiting: 0 });
});

test('a request larger than the whole budget is admitted alone, and nothing joins it', async () => {
  const gate = createByteGate(16 * MiB);
  const big = await gate.admit(40 * MiB, 1_000);
  expect(gate.load().admitted).toBe(16 * MiB);
  let small: (() => void) | null | undefined;
  void gate.admit(1_000, 1_000).then((r) => {
    small = r;
  });
  await tick();
  expect(small).toBeUndefined();
  big!();
  await tick();
  expect(small).toBeInstanceOf(Function);
});

test('first come, first served: a small request does not pass a large one waiting ahead of it', async () => {
  const gate = createByteGate(16 * MiB);
  const first = await gate.admit(8 * MiB, 1_000);
  const order: string[] = [];
  void gate.admit(15 * MiB, 1_000).then((r) => {
    order.push('large');
    r!();
  });
  void gate.admit(1 * MiB, 1_000).then((r) => {
    order.push('small');
    r!();
  });
  await tick();
  expect(order).toEqual([]);
  first!();
  await tick();
  expect(order).toEqual(['large', 'small']);
});

test('a wait past its bound answers null and leaves the queue; a waiter that leaves the head lets the next in', async () => {
  const gate = createByteGate(16 * MiB);
  const held = await gate.admit(10 * MiB, 1_000);
  const timedOut = gate.admit(15 * MiB, 30);
  let small: (() => void) | null | undefined;
  void gate.admit(2 * MiB, 5_000).then((r) => {
    small = r;
  });
  await tick();
  expect(small).toBeUndefined();
  expect(await timedOut).toBeNull();
  await tick();
  // The large waiter gone, the small one fits beside the 10 MiB held.
  expect(small).toBeInstanceOf(Function);
  expect(gate.load()).toEqual({ admitted: 12 * MiB, waiting: 0 });
  held!();
  small!();
  expect(gate.load()).toEqual({ admitted: 0, waiting: 0 });
});

test('a client that goes away while waiting leaves the queue; a release twice counts once', async () => {
  const gate = createByteGate(16 * MiB);
  const held = await gate.admit(16 * MiB, 1_000);
  let leave: () => void = () => {};
  const waiting = gate.admit(1 * MiB, 60_000, (l) => {
    leave = l;
  });
  expect(gate.load().waiting).toBe(1);
  leave();
  expect(await waiting).toBeNull();
  expect(gate.load().waiting).toBe(0);
  held!();
  held!();
  expect(gate.load().admitted).toBe(0);
});

test('the weight of a body: its declared length as sent, the cap when unknown or compressed, nothing when refused unread or absent', () => {
  const cap = 16 * MiB;
  expect(bodyWeight({ 'content-length': '1200' }, cap)).toBe(1200);
  expect(bodyWeight({ 'transfer-encoding': 'chunked' }, cap)).toBe(cap);
  expect(bodyWeight({ 'content-length': '1200', 'content-encoding': 'gzip' }, cap)).toBe(cap);
  expect(bodyWeight({ 'content-length': String(cap + 1) }, cap)).toBe(0);
  expect(bodyWeight({}, cap)).toBe(0);
  expect(bodyWeight({ 'content-length': '0' }, cap)).toBe(0);
});
