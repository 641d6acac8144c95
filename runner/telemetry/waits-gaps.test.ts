// A second in which the wait sampler took no reading (its budget slowed it to about one a second, at random
// instants) must not borrow the collector's own reading: that one is taken on the engine's tick, the instant the
// run's connections wait on the client, the very bias the sampler exists to avoid. Such a sample counts no
// readings (ticks 0), the window is made of the sampler's readings alone, and charts show a gap for it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { testDatabase } from "../../lib/testing";
import { perReading } from "../../lib/telemetry/shape";
import { WindowAccumulator } from "../../lib/telemetry/window";
import { TelemetryCollector } from "./collector";

let db: { url: string; drop: () => Promise<void> };
let held: pg.Client;
let heldPid = 0;

before(async () => {
  db = await testDatabase("waitgaps");
  held = new pg.Client({ connectionString: db.url });
  await held.connect();
  heldPid = (await held.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;
  // The run's one connection, idle in a transaction the whole time: every reading of it counts it once.
  await held.query("BEGIN");
});
after(async () => {
  await held.query("ROLLBACK");
  await held.end();
  await db.drop();
});

test("an interval without a wait-sampler reading counts none (not the collector's tick-phase reading)", async () => {
  // Samples every 200 ms, the sampler about once a second: most samples' intervals hold no reading.
  const c = await TelemetryCollector.start(db.url, { intervalMs: 200, runPids: () => [heldPid], waits: { periodMs: 1000 } });
  try {
    assert.equal(c.info.waits?.kind, "pg_stat_activity", "the wait sampler runs");
    const deadline = Date.now() + 60_000;
    // Until a sample with a reading and one without have come (on a busy machine the readings' seconds stretch, and a
    // first 20 samples may each hold one): a reading-less sample never coming fails below.
    const enough = () => c.samples().length >= 20 && c.samples().some((s) => (s.ticks ?? 1) > 0) && c.samples().some((s) => s.ticks === 0);
    while (!enough() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(enough(), `only ${c.samples().length} samples`);
  } finally {
    await c.stop();
  }
  const samples = c.samples();
  const ticks = samples.map((s) => s.ticks ?? 1);
  // With ~1 reading a second and 5 samples a second, some samples hold no reading at all.
  assert.ok(
    ticks.some((t) => t === 0),
    `every sample counted a reading (ticks ${ticks.join(",")}): seconds without one took the collector's own`,
  );
  for (const s of samples) {
    // Each reading saw the held connection once, idle in its transaction; none counted means nothing counted.
    assert.equal(s.run.total, s.ticks, `run connections ${s.run.total} over ${s.ticks} readings`);
    assert.equal(s.run.idleInTx, s.ticks);
    if (s.ticks === 0) assert.equal(perReading(s), null, "no reading: the charts show a gap, not zero connections");
  }
  const acc = new WindowAccumulator();
  for (const s of samples) acc.add(s);
  const w = acc.result()!;
  assert.equal(
    w.waitReadings,
    ticks.reduce((a, b) => a + b, 0),
  );
  assert.equal(w.runConnections, 1);
  assert.equal(w.runIdleInTxShare, 1);
});
