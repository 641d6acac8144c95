// Runs over 2 real part processes (runner/parts/) on the embedded target: pub/sub and the queue verify exactly, the
// summary is the parts' exact merge; a config that cannot be split is refused. Failures: ./parts-failures.test.ts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { decodeHistogram, percentilesOf } from "../../lib/measurement/histogram";
import type { RunSummary } from "../../lib/measurement/summary";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig } from "../../lib/workloads/config";
import { partsProblem } from "../../lib/workloads/parts";
import { type EngineSample, runWorkload, verificationError } from "../engine";
import type { Report } from "../core/stats";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("parts-runs");
});
after(async () => {
  await db.drop();
});

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

/** A silence bound no busy machine reaches: these runs judge the merge, not a part's silence (a forked part of a
 *  run beside Playwright once went past the 5 s default). */
const PATIENT = { silenceMs: 30_000 };

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
  const s = await runWorkload(config, db.url, { drainSeconds: 10, partsForTest: PATIENT, onSample: (x) => void samples.push(x) });
  assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  const written = s.totals!.operations.write;
  assert.ok(written > 0);
  assert.equal(s.verification.checked, 2 * written, "each group read every message written");
  assert.equal(s.totals!.operations.read, 2 * written);
  checkMerged(s, samples);
});

test("the queue over 2 processes (4 writers, 2 readers, throttled): every message verified, the summary the parts' exact merge", async () => {
  const config = WorkloadConfig.parse({
    kind: "queue",
    writers: 4,
    readers: 2,
    throttleWritesPerSec: 200,
    durationSeconds: 2,
    warmupSeconds: 0,
    reportIntervalSeconds: 1,
    processes: 2,
  });
  const samples: EngineSample[] = [];
  const reports: Report[] = [];
  const s = await runWorkload(config, db.url, {
    drainSeconds: 10,
    partsForTest: PATIENT,
    onSample: (x) => void samples.push(x),
    onReport: (r) => void reports.push(r),
  });
  assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  const written = s.totals!.operations.write;
  assert.ok(written > 0);
  assert.equal(s.verification.checked, written, "every message written accounted for");
  // The CLI's live line, from the parts' merged seconds.
  const measured = reports.filter((r) => r.phase === "measuring");
  assert.ok(measured.length >= 1 && measured.every((r) => r.writesPerSec > 0 && r.latencyMs.write && r.latencyMs.e2e), JSON.stringify(reports));
  assert.equal(s.totals!.operations.read, written);
  checkMerged(s, samples);
  // The parts forked here are the runner: the host's reading counts their CPU as the runner's, never as "other
  // processes" (which would make a run look host-bound by its own parts).
  const host = s.telemetry?.window?.host;
  if (host) {
    const partsCores = s.manifest.parts!.reduce((a, p) => a + p.runnerCpuSeconds / p.measuredSeconds, 0);
    assert.ok((host.runnerCpuCores ?? 0) >= 0.5 * partsCores, `host's runner CPU ${host.runnerCpuCores} cores, the parts' own ${partsCores}`);
  }
});

test("an open loop's drain longer than the silence bound (writers held by a lock) is a drain, not a silent part", { timeout: 120_000 }, async () => {
  const config = WorkloadConfig.parse({ kind: "inserts", rate: 100, connections: 2, durationSeconds: 3, warmupSeconds: 0, processes: 2 });
  const locker = new pg.Client({ connectionString: db.url });
  await locker.connect();
  let schema = "";
  let locked: Promise<unknown> | undefined;
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await locked;
    await locker.query("COMMIT");
  };
  const samples: EngineSample[] = [];
  try {
    const s = await runWorkload(config, db.url, {
      drainSeconds: 20,
      partsForTest: { silenceMs: 8000 },
      onSchema: (name) => {
        schema = name;
      },
      onSample: (x) => {
        samples.push(x);
        // Late in the measuring window every insert waits for this lock, so the parts' writers cannot finish...
        if (x.phase === "measuring" && x.metrics.elapsedSec >= 2 && !locked)
          locked = locker.query("BEGIN").then(() => locker.query(`LOCK TABLE "${schema}".bench_inserts IN ACCESS EXCLUSIVE MODE`));
        // ... until the drain has lasted 9 merged seconds, longer than the parts' 8 s silence bound (at 2 s, a part
        // of a run beside Playwright could miss it while nothing held it).
        if (samples.filter((y) => y.phase === "draining").length >= 9) void release();
      },
    });
    assert.equal(s.verification.ok, true, verificationError(s) ?? "");
    const drain = Number(/drain time (\d+\.\d+) s/.exec((s.notes ?? []).join("\n"))?.[1]);
    assert.ok(drain >= 8, `the drain lasted ${drain} s, past the silence bound: ${(s.notes ?? []).join(" / ")}`);
  } finally {
    await release().catch(() => undefined);
    await locker.end();
  }
});

test("a config that cannot be split over its processes is refused with what to change", async () => {
  const config = WorkloadConfig.parse({ kind: "pubsub", writers: 4, partitions: 2, consumerGroups: 1, durationSeconds: 1, processes: 4 });
  const want = partsProblem(config);
  assert.match(want ?? "", /4 runner processes need at least 4 partitions.*lower processes to 2 or raise partitions/);
  await assert.rejects(runWorkload(config, db.url), (e: Error) => e.message === want);
});
