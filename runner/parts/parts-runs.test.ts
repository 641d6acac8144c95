// Runs over 2 real part processes (runner/parts/) on the embedded target: pub/sub and the queue verify exactly, the
// summary is the parts' exact merge, and a part that dies or never becomes ready fails the run naming it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { decodeHistogram, percentilesOf } from "../../lib/measurement/histogram";
import type { RunSummary } from "../../lib/measurement/summary";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig } from "../../lib/workloads/config";
import { partsProblem } from "../../lib/workloads/parts";
import { PROJECT_ROOT } from "../../lib/paths";
import { type EngineSample, runWorkload, verificationError } from "../engine";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("parts-runs");
});
after(async () => {
  await db.drop();
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function schemaExists(name: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [name])).rowCount === 1;
  } finally {
    await c.end();
  }
}

/** The part pids the coordinator logs once every part is ready. */
const partPids = (lines: string[]) => lines.flatMap((l) => [...l.matchAll(/part (\d+) pid (\d+)/g)].map((m) => ({ part: Number(m[1]), pid: Number(m[2]) })));

/** What every run over 2 parts must show: two parts, their clocks, counts and histograms that add up, samples. */
function checkMerged(s: RunSummary, samples: EngineSample[], writesPerSecondRounding = 1) {
  const parts = s.manifest.parts ?? [];
  assert.equal(parts.length, 2, "manifest.parts has both parts");
  assert.equal(new Set(parts.map((p) => p.pid)).size, 2, "two distinct part processes");
  for (const p of parts) {
    assert.notEqual(p.pid, process.pid, "the parts are processes of their own");
    assert.ok(Number.isFinite(p.startSkewMs) && p.startSkewMs >= 0, `part ${p.part} start skew ${p.startSkewMs}`);
    assert.ok(Number.isFinite(p.clockOffsetMs), `part ${p.part} clock offset ${p.clockOffsetMs}`);
  }
  // Each operation's count is the sum of the parts' (each part's rate over its own window).
  for (const name of ["write", "read", "e2e"]) {
    const sum = parts.reduce((n, p) => n + (p.perSecond[name] ?? 0) * p.measuredSeconds, 0);
    assert.ok(Math.abs(sum - s.operations[name].count) <= writesPerSecondRounding, `${name}: ${s.operations[name].count} vs the parts' ${sum}`);
  }
  // Latencies are read from the added histograms: every read message's e2e of both parts is in the merged one.
  const e2e = decodeHistogram(s.histograms!.e2e!.fromSend!);
  assert.equal(e2e.totalCount, s.operations.e2e.count, "the merged e2e histogram holds every part's values");
  assert.deepEqual(s.operations.e2e.latency.fromSend, percentilesOf(e2e), "e2e percentiles are the merged histogram's");
  const measuring = samples.filter((x) => x.phase === "measuring");
  assert.equal(measuring.length, s.config.durationSeconds, "one merged sample per measured second");
  for (const x of samples) assert.equal(x.metrics.processes?.parts.length, 2, `sample ${x.seq} names both parts`);
  assert.ok(
    samples.some((x) => x.phase === "draining"),
    "the drain's samples too",
  );
}

test("pub/sub over 2 processes (4 partitions, 2 groups, throttled): every message verified, the summary the parts' exact merge", async () => {
  const config = WorkloadConfig.parse({
    kind: "pubsub",
    writers: 4,
    partitions: 4,
    consumerGroups: 2,
    writeBatch: 10,
    readBatch: 50,
    throttleWritesPerSec: 400,
    durationSeconds: 2,
    warmupSeconds: 0,
    processes: 2,
  });
  const samples: EngineSample[] = [];
  const s = await runWorkload(config, db.url, { drainSeconds: 10, onSample: (x) => void samples.push(x) });
  assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  const written = s.totals!.operations.write;
  assert.ok(written > 0);
  assert.equal(s.verification.checked, 2 * written, "each group read every message written");
  assert.equal(s.totals!.operations.read, 2 * written);
  checkMerged(s, samples);
});

test("the queue over 2 processes (4 writers, 2 readers, throttled): every message verified, the summary the parts' exact merge", async () => {
  const config = WorkloadConfig.parse({ kind: "queue", writers: 4, readers: 2, throttleWritesPerSec: 200, durationSeconds: 2, warmupSeconds: 0, processes: 2 });
  const samples: EngineSample[] = [];
  const s = await runWorkload(config, db.url, { drainSeconds: 10, onSample: (x) => void samples.push(x) });
  assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  const written = s.totals!.operations.write;
  assert.ok(written > 0);
  assert.equal(s.verification.checked, written, "every message written accounted for");
  assert.equal(s.totals!.operations.read, written);
  checkMerged(s, samples);
});

test("a part killed mid-run fails the run at once, naming it; no part process is left and the schema is dropped", async () => {
  const config = WorkloadConfig.parse({
    kind: "queue",
    writers: 2,
    readers: 2,
    throttleWritesPerSec: 100,
    durationSeconds: 60,
    warmupSeconds: 0,
    processes: 2,
  });
  const lines: string[] = [];
  let killed: number | undefined;
  const run = runWorkload(config, db.url, {
    runId: "killed_part",
    telemetry: false,
    log: (l) => lines.push(l),
    onSample: () => {
      if (killed !== undefined) return;
      killed = partPids(lines).find((p) => p.part === 1)?.pid;
      assert.ok(killed, `the coordinator logged the parts' pids: ${lines.join(" / ")}`);
      process.kill(killed, "SIGKILL");
    },
  });
  await assert.rejects(run, (e: Error) => {
    assert.match(e.message, new RegExp(`part 1 \\(pid ${killed} on host \\S+\\) exited with SIGKILL while measuring`));
    assert.match(e.message, /the run failed/);
    return true;
  });
  for (const { pid } of partPids(lines)) assert.equal(alive(pid), false, `part process ${pid} is gone`);
  assert.equal(await schemaExists("pgbb_killed_part"), false, "the run's schema was dropped");
});

test("a part that never becomes ready fails the run saying so, and leaves no process", async () => {
  const config = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, durationSeconds: 2, warmupSeconds: 0, processes: 2 });
  const lines: string[] = [];
  const pids = new Set<number>();
  const entry = `${PROJECT_ROOT}/runner/parts/idle-part.fixture.ts`;
  await assert.rejects(
    runWorkload(config, db.url, { runId: "never_ready", telemetry: false, log: (l) => lines.push(l), partsForTest: { entry, readyTimeoutMs: 3000 } }),
    /part 0 \(pid \d+ on host \S+\), part 1 \(pid \d+ on host \S+\) did not become ready within 3 s/,
  );
  for (const l of lines) for (const m of l.matchAll(/pid (\d+)/g)) pids.add(Number(m[1]));
  for (const pid of pids) assert.equal(alive(pid), false, `process ${pid} is gone`);
  assert.equal(await schemaExists("pgbb_never_ready"), false, "the run's schema was dropped");
});

test("a config that cannot be split over its processes is refused with what to change", async () => {
  const config = WorkloadConfig.parse({ kind: "pubsub", writers: 4, partitions: 2, consumerGroups: 1, durationSeconds: 1, processes: 4 });
  const want = partsProblem(config);
  assert.match(want ?? "", /4 runner processes need at least 4 partitions.*lower processes to 2 or raise partitions/);
  await assert.rejects(runWorkload(config, db.url), (e: Error) => e.message === want);
});
