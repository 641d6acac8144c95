// exercise(): a workload's declared pacing, driven by the engine core's pacers on a simulated clock
// (runner/core/fake-clock.ts): for each preset, a throttle or open loop admits what it declares, never early, and
// its from-schedule latency grows when the operation is too slow for the rate (coordinated omission); virtual
// users send again after answer + think time; an unpaced loop never waits.
import assert from "node:assert/strict";
import type { WorkloadConfig } from "../../lib/workloads/config";
import { OpenLoop, Pacer, Stopper, type TargetClient } from "../../runner/core";
import { FakeClock } from "../../runner/harness";
import { runnerOf } from "../runners";
import { type Pacing, type WorkloadDefinition, writeBatchOf } from "../types";
import { ConnectionPool } from "../yong/driver";

/** Every preset's pacing names one of its declared operations, in its unit, with a rate or users as its kind needs. */
export function pacingDeclared(def: WorkloadDefinition) {
  assert.equal(typeof def.pacing, "function", `${def.kind} declares no pacing`);
  for (const preset of def.presets) {
    const p = def.pacing(def.params.parse(preset.config));
    const where = `${def.kind}, preset ${preset.id}`;
    assert.ok(["throttle", "open-loop", "closed-loop", "unpaced"].includes(p.kind), `${where}: pacing kind ${p.kind}`);
    const op = def.metrics.operations.find((o) => o.name === p.operation);
    assert.ok(op, `${where}: paced operation "${p.operation}" is not declared`);
    assert.equal(p.unit, op.unit, `${where}: pacing unit is not its operation's`);
    if (p.kind === "throttle" || p.kind === "open-loop") assert.ok((p.targetPerSecond ?? 0) > 0, `${where}: ${p.kind} without a target rate`);
    else assert.equal(p.targetPerSecond, undefined, `${where}: ${p.kind} with a target rate`);
    if (p.kind === "closed-loop") assert.ok((p.virtualUsers ?? 0) >= 1, `${where}: a closed loop without virtual users`);
  }
}

interface Started {
  due: number;
  at: number;
  n: number;
  vu?: number;
}

/** A run of a pacer on the fake clock: what it started, and the items' times from their schedule. */
interface Drive {
  started: Started[];
  /** done − due of each answered item (ms). */
  fromSchedule: number[];
  /** Whether a writer's lag came with the items' from-schedule times. */
  lags: number;
}

/** Simulated time of each drive, at most: shorter for high rates and many virtual users, so a test of every
 *  preset stays fast (a few thousand operations each). */
const SIM_MS = 2000;
const SIM_OPERATIONS = 2000;

/** The recorder the pacer times answered items into (RunStats.recordScheduled's signature). */
const recorder = (d: Drive) => ({
  recordScheduled(due: number, _sent: number, done: number, lag?: number) {
    d.fromSchedule.push(done - due);
    if (lag !== undefined) d.lags++;
  },
});

/** `loops` loops of `n` items on the pacer's timetable (a throttle's writers; an unpaced run's loops). */
async function driveLoops(pacing: Pacing, loops: number, n: number, opMs: number, sim: number): Promise<Drive> {
  const fake = new FakeClock();
  const d: Drive = { started: [], fromSchedule: [], lags: 0 };
  const pacer = new Pacer(pacing, recorder(d), fake);
  const stop = new Stopper();
  const start = fake.now();
  pacer.begin(start, loops);
  const all = Array.from({ length: loops }, (_, i) =>
    pacer.loop(i, stop, n, async (slot) => {
      const sent = fake.now();
      d.started.push({ due: slot.due || sent, at: sent, n });
      await fake.took(opMs);
      slot.answered(sent, fake.now());
      return true;
    }),
  );
  await fake.runUntil(start + sim);
  stop.stop();
  await fake.runUntil(start + sim + 10 * opMs);
  await Promise.all(all);
  return d;
}

/** The open loop's arrivals, each running on its own on one of `pool` connections (Yong's driver's shape). */
async function driveArrivals(pacing: Pacing, pool: number, opMs: number, sim: number): Promise<Drive> {
  const fake = new FakeClock();
  const d: Drive = { started: [], fromSchedule: [], lags: 0 };
  const pacer = new Pacer(pacing, recorder(d), fake);
  const stop = new Stopper();
  const start = fake.now();
  pacer.begin(start, 1);
  const connections = new ConnectionPool(Array.from({ length: pool }, (_, i) => ({ role: `pool ${i}` }) as TargetClient));
  const running: Promise<void>[] = [];
  const arrivals = pacer.arrivals(stop, (due) => {
    d.started.push({ due, at: fake.now(), n: 1 });
    running.push(
      (async () => {
        const tc = await connections.acquire();
        await fake.took(opMs);
        connections.release(tc);
        d.fromSchedule.push(fake.now() - due);
      })(),
    );
  });
  await fake.runUntil(start + sim);
  stop.stop();
  await fake.settle();
  await arrivals;
  await fake.runUntil(start + 100 * sim + 10 * opMs);
  await Promise.all(running);
  return d;
}

/** The open loop with a drain over `connections` loops (DBOS's shape): units of `n` items. */
async function driveOpenLoop(pacing: Pacing, connections: number, n: number, opMs: number, sim: number): Promise<Drive> {
  const fake = new FakeClock();
  const d: Drive = { started: [], fromSchedule: [], lags: 0 };
  const pacer = new Pacer(pacing, recorder(d), fake);
  const stops = { writersStop: new Stopper(), readersStop: new Stopper() };
  const start = fake.now();
  pacer.begin(start, connections);
  const loop = new OpenLoop(pacer, stops, n, async (_tc, slot) => {
    const sent = fake.now();
    d.started.push({ due: slot.due, at: sent, n });
    await fake.took(opMs);
    slot.answered(sent, fake.now());
    return true;
  });
  loop.start(Array.from({ length: connections }, (_, i) => ({ role: `conn ${i}`, lost: false }) as unknown as TargetClient));
  await fake.runUntil(start + sim);
  // Only what started in the window counts; then the window ends and the drain is cut short.
  const inWindow = d.started.length;
  stops.writersStop.stop();
  stops.readersStop.stop();
  await fake.runUntil(start + sim + 10 * opMs);
  await loop.done();
  return { ...d, started: d.started.slice(0, inWindow) };
}

/** Virtual users: each request takes `opMs`, then the pacer's think time. */
async function driveVirtualUsers(pacing: Pacing, opMs: number, sim: number): Promise<Drive> {
  const fake = new FakeClock();
  const d: Drive = { started: [], fromSchedule: [], lags: 0 };
  const pacer = new Pacer(pacing, recorder(d), fake);
  const stop = new Stopper();
  const start = fake.now();
  const users = pacer.virtualUsers(stop, async (vu) => {
    d.started.push({ due: fake.now(), at: fake.now(), n: 1, vu });
    await fake.took(opMs);
    return true;
  });
  await fake.runUntil(start + sim);
  stop.stop();
  await fake.runUntil(start + sim + opMs);
  await users;
  return d;
}

const admitted = (d: Drive, until: number) => d.started.filter((s) => s.at <= until).reduce((a, s) => a + s.n, 0);

function assertNeverEarly(d: Drive, where: string) {
  const early = d.started.find((s) => s.at < s.due);
  assert.equal(early, undefined, `${where}: an operation started ${early ? early.due - early.at : 0} ms before its due time`);
}

/** Times from the schedule grow while the operation is too slow for the rate (coordinated omission). */
function assertLatenessGrows(d: Drive, sim: number, where: string) {
  const xs = d.fromSchedule;
  assert.ok(xs.length > 10, `${where}: only ${xs.length} items answered`);
  const third = Math.floor(xs.length / 3);
  const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
  const first = mean(xs.slice(0, third));
  const last = mean(xs.slice(-third));
  assert.ok(last > first + 0.2 * sim, `${where}: from-schedule latency did not grow with a slow operation (${first} ms → ${last} ms)`);
}

/** Every preset's declared pacing, driven on a fake clock: admits what it declares, never early. */
export async function pacingOnFakeClock(def: WorkloadDefinition) {
  for (const preset of def.presets) {
    const c = def.params.parse(preset.config) as WorkloadConfig;
    // What the config asks is the declaration (workloads/pacing.test.ts checks it against the product's fields).
    const pacing = def.pacing(c);
    const want = pacing;
    const where = `${def.kind}, preset ${preset.id} (${pacing.kind})`;
    const loops = (await runnerOf(c)).writerCount(c as never);
    const n = writeBatchOf(def, c);
    const start = new FakeClock().now();
    if (want.kind === "throttle" || want.kind === "open-loop") {
      const rate = want.targetPerSecond ?? 0;
      const sim = Math.min(SIM_MS, (1000 * SIM_OPERATIONS * n) / rate);
      const target = (rate * sim) / 1000;
      const drives =
        want.kind === "throttle"
          ? { loops: await driveLoops(pacing, loops, n, 0, sim) }
          : { arrivals: await driveArrivals(pacing, loops, 0, sim), "open loop": await driveOpenLoop(pacing, loops, n, 0, sim) };
      for (const [shape, d] of Object.entries(drives)) {
        const got = admitted(d, start + sim);
        assert.ok(Math.abs(got - target) <= n, `${where}, ${shape}: admitted ${got} ${want.unit} in ${sim} ms, asked ${target} (± ${n})`);
        assertNeverEarly(d, `${where}, ${shape}`);
      }
      // Too slow by half for the rate: each item is later than the one before, counted from its schedule.
      const slowMs = (2000 * Math.max(1, loops) * n) / rate;
      if (want.kind === "throttle") {
        const slow = await driveLoops(pacing, loops, n, slowMs, sim);
        assertLatenessGrows(slow, sim, `${where}, slow`);
        assert.equal(slow.lags, slow.fromSchedule.length, `${where}: a throttled write's lag behind its share is not recorded`);
      } else {
        assertLatenessGrows(await driveArrivals(pacing, loops, slowMs, sim), sim, `${where}, arrivals, slow`);
        const slow = await driveOpenLoop(pacing, loops, n, slowMs, sim);
        assertLatenessGrows(slow, sim, `${where}, open loop, slow`);
        assert.equal(slow.lags, 0, `${where}: an open loop has no writers' shares`);
      }
    } else if (want.kind === "closed-loop") {
      const opMs = 5;
      const cycle = opMs + (want.thinkMs ?? 0);
      const vuCount = want.virtualUsers ?? 0;
      const sim = Math.min(SIM_MS, Math.max(3 * cycle, (cycle * SIM_OPERATIONS) / Math.max(1, vuCount)));
      const d = await driveVirtualUsers(pacing, opMs, sim);
      const vus = new Set(d.started.map((s) => s.vu));
      assert.equal(vus.size, vuCount, `${where}: ${vus.size} virtual users ran, the config asks ${vuCount}`);
      for (const vu of vus) {
        const at = d.started.filter((s) => s.vu === vu).map((s) => s.at);
        for (let i = 1; i < at.length; i++)
          assert.equal(at[i] - at[i - 1], cycle, `${where}: virtual user ${vu} sent again after ${at[i] - at[i - 1]} ms, not answer + think ${cycle} ms`);
        assert.equal(at.length, Math.floor(sim / cycle) + 1, `${where}: virtual user ${vu} sent ${at.length} requests`);
      }
    } else {
      // Unpaced: back to back, nothing waited for.
      const sim = Math.min(SIM_MS, SIM_OPERATIONS / loops);
      const d = await driveLoops(pacing, loops, n, 1, sim);
      assert.equal(admitted(d, start + sim), loops * n * (sim + 1), `${where}: an unpaced loop waited`);
      assert.equal(d.fromSchedule.length, 0, `${where}: an unpaced run has no schedule to time from`);
    }
  }
}
