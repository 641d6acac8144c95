// The verdict's evidence on real runs against embedded Postgres servers, each checked against what was provoked:
//   the run's "active" share    against a separate sampler (pg_stat_activity every ~0.15 s from another session,
//                                on a timer of the test's own) over the same measured window of a WAL-bound run
//   WAL-flush-bound            commit_delay = 10 ms with commit_siblings = 0 and fsync on: every commit waits
//   lock-contention-bound      the notify workload's modded variant: every commit that NOTIFYs queues on one
//                                global lock (Lock:object on the database)
//   not client-bound           a default pub/sub run: the runner at a fraction of a core is not the limit
//   host-bound / the caution   busy-loop processes pinned to the runner's CPU (and the runner pinned there too):
//                                the verdict names the others' CPU and the runner's wait for a CPU (host-bound,
//                                or the starved runner's caution on the latencies: never "the limit" unless it was)
//   undetermined               a run where no rule's numbers hold says so, with the top waits
import { explainVerdict } from "../../lib/telemetry/testing";
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { type CpuHogs, cpuHogs, startTestServer, testDatabase } from "../../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload } from "../engine";
import { clock } from "../core/timing";

const explain = explainVerdict;

/**
 * A sampler apart from the product's: its own session, its own timer (every 100-200 ms), counting the run's
 * client backends (every "pgbb …" session but the telemetry's own and the admin's, which idles through the load)
 * by state while `on()` says so.
 */
function separateSampler(url: string, on: () => boolean) {
  const c = new pg.Client({ connectionString: url, application_name: "separate sampler" });
  let active = 0;
  let total = 0;
  let stopped = false;
  const loop = (async () => {
    await c.connect();
    while (!stopped) {
      const due = clock() + 100 + Math.random() * 100;
      while (clock() < due && !stopped) await new Promise((r) => setTimeout(r, Math.max(due - clock(), 1)));
      if (!on() || stopped) continue;
      const r = await c.query(
        `SELECT count(*) FILTER (WHERE state = 'active')::int AS active, count(*)::int AS total FROM pg_stat_activity
         WHERE application_name LIKE 'pgbb %' AND application_name NOT LIKE 'pgbb telemetry%' AND application_name <> 'pgbb admin'
           AND state IS NOT NULL`,
      );
      active += r.rows[0].active;
      total += r.rows[0].total;
    }
    await c.end();
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { activeShare: total > 0 ? active / total : 0, readings: total };
    },
  };
}

async function judgedBeside(input: WorkloadInput, url: string, onMeasuring?: (on: boolean) => void) {
  let measuring = false;
  const sampler = separateSampler(url, () => measuring);
  const onPhase = (p: string) => {
    if (measuring !== (p === "measuring")) onMeasuring?.(p === "measuring");
    measuring = p === "measuring";
  };
  const summary = await runWorkload(WorkloadConfig.parse(input), url, { drainSeconds: 2, onPhase });
  const separate = await sampler.stop();
  const t = summary.telemetry;
  assert.ok(t?.window, "the summary carries the telemetry window");
  return { verdict: t.verdict, window: t.window, info: t.info, separate, summary };
}

describe("on a server where every commit waits 10 ms for the WAL flush (commit_delay)", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  before(async () => {
    server = await startTestServer(["-c", "fsync=on", "-c", "synchronous_commit=on", "-c", "commit_delay=10000", "-c", "commit_siblings=0"]);
  });
  after(async () => {
    await server?.stop();
  });

  test("the verdict's active share matches a separate sampler's, and the run is called WAL-flush-bound", async (t) => {
    const { verdict, window, info, separate } = await judgedBeside(
      { kind: "queue", writers: 8, readers: 2, durationSeconds: 10, warmupSeconds: 1 },
      server.url("postgres"),
    );
    t.diagnostic(
      `${verdict.statement}; verdict active ${window.runActiveShare.toFixed(2)} over ${window.waitReadings} readings, separate sampler ${separate.activeShare.toFixed(2)} over ${separate.readings} backend-readings`,
    );
    assert.equal(info.waits?.kind, "pg_stat_activity", "the embedded server has no pg_wait_sampling: the runner samples");
    assert.ok(separate.readings > 0, "the separate sampler read the run's backends");
    // Both are samples: the tolerance is three standard errors of the fewer readings (each reading counted as one
    // observation, its connections being correlated), at least 0.15. The old collector, on the engine's tick, read
    // 0.58 against 0.80 here, and 0.00 against 0.72 before that.
    const p = separate.activeShare;
    const tolerance = Math.max(0.15, 3 * Math.sqrt((p * (1 - p)) / Math.max(window.waitReadings ?? 1, 1)));
    assert.ok(
      Math.abs(window.runActiveShare - separate.activeShare) <= tolerance,
      `active share: verdict ${window.runActiveShare.toFixed(3)} over ${window.waitReadings} readings, separate sampler ${separate.activeShare.toFixed(3)} (tolerance ${tolerance.toFixed(3)})`,
    );
    assert.equal(verdict.category, "wal-flush-bound", explain(verdict));
    // Not "more connections would help": the connections were on the server, waiting for the WAL. (Client-bound
    // may show under "also" when other work on this machine starved the runner: that is true by its numbers.)
    assert.ok(!verdict.also.includes("connection-bound"), explain(verdict));
  });

  // NOTIFY's lock is held from before the commit record to after its flush: with the flush slow, the other
  // publishers queue on the lock instead of flushing together (group commit), and the lock is the limit.
  test("NOTIFY-lock-bound: publishers whose every commit NOTIFYs queue on the one global lock", async (t) => {
    const { verdict, window } = await judgedBeside(
      { kind: "notify", variant: "modded", vus: 40, thinkMs: 0, durationSeconds: 4, warmupSeconds: 1 } as WorkloadInput,
      server.url("postgres"),
    );
    t.diagnostic(verdict.statement);
    assert.equal(verdict.category, "lock-contention-bound", explain(verdict));
    assert.equal(
      Object.keys(window.runWaitShares).find((k) => k.startsWith("Lock:")),
      "Lock:object",
      explain(verdict),
    );
    assert.match(verdict.statement, /NOTIFY/);
  });
});

describe("on the test server", () => {
  let db: { url: string; drop: () => Promise<void> };
  before(async () => {
    db = await testDatabase("evidence");
  });
  after(async () => {
    await db?.drop();
  });

  test("a default pub/sub run is not client-bound: the runner uses a fraction of a core", async (t) => {
    const { verdict, window } = await judgedBeside({ kind: "pubsub", durationSeconds: 4, warmupSeconds: 1 } as WorkloadInput, db.url);
    t.diagnostic(
      `${verdict.statement}; runner ${window.client?.cpuPct.toFixed(1)}% of a core, waited ${window.client?.runQueueWaitMsPerSec?.toFixed(0)} ms/s for a CPU`,
    );
    const client = verdict.findings.find((f) => f.category === "client-bound")!;
    // Not by saturation; and by starvation only when the runner really waited for a CPU (this machine may be shared).
    assert.ok(!client.evidence.some((e) => /^runner (CPU|event-loop utilization)/.test(e.what) && e.holds), explain(verdict));
    if (client.matched) assert.ok(window.client!.runQueueWaitMsPerSec! >= 100, explain(verdict));
    assert.notEqual(verdict.category, "client-bound", explain(verdict));
  });

  describe("with CPU hogs pinned beside the runner", () => {
    let hogs: CpuHogs;
    before(async () => {
      hogs = await cpuHogs(6);
    });
    after(() => hogs?.stop());

    test("the verdict names the hogs' CPU and the runner's wait for a CPU", async (t) => {
      // The hogs' CPU as the test itself reads it from /proc over the measured window.
      const hogSeconds = () => hogs.cpuSeconds();
      let from: { sec: number; at: number } | undefined;
      let hogCores = 0;
      const { verdict, window, summary } = await judgedBeside({ kind: "pubsub", durationSeconds: 4, warmupSeconds: 1 } as WorkloadInput, db.url, (on) => {
        if (on) from = { sec: hogSeconds(), at: clock() };
        else if (from) hogCores = (hogSeconds() - from.sec) / ((clock() - from.at) / 1000);
      });
      t.diagnostic(`${verdict.statement}; the hogs used ${hogCores.toFixed(2)} cores by the test's own reading`);
      // Host-bound, or the runner's caution inside whatever the headline is (a starved runner is not the limit), or
      // the runner at its limit (client-bound: this unpaced run asked no rate it could have met).
      const cpuNamed = /host-bound: other processes|these latencies include up to [\d.]+ m?s of the runner's own delay/.test(verdict.statement);
      assert.ok(["host-bound", "client-bound"].includes(verdict.category) || cpuNamed, explain(verdict));
      assert.doesNotMatch(verdict.statement, verdict.category === "client-bound" ? /starved of CPU \(/ : /the runner was the limit/, explain(verdict));
      const h = window.host!;
      // The verdict's figure for the hogs is the test's own (other processes on this machine may take CPU 0 too).
      const hog = h.topOthers?.find((o) => o.name === "pgbb-hog");
      assert.ok(
        hog && Math.abs(hog.cores - hogCores) <= 0.2,
        `the hogs' CPU ${hogCores.toFixed(2)} cores; shown ${JSON.stringify(h.topOthers)}\n${explain(verdict)}`,
      );
      // Other processes (the hogs among them) used at least the hogs' share of the host.
      assert.ok(h.otherCpuCores! >= hogCores - 0.1, explain(verdict));
      assert.ok((100 * h.otherCpuCores!) / h.cores >= 25, explain(verdict));
      // Sharing one CPU with three busy loops, the runner waits most of the time it could run.
      assert.ok(window.client!.runQueueWaitMsPerSec! >= 100, explain(verdict));
      // (In the headline's evidence, or in the host's or the runner's finding, the caution's numbers.)
      const shown = [
        verdict.evidence,
        ...verdict.findings.filter((f) => (f.matched && f.category === "host-bound") || f.category === "client-bound").map((f) => f.evidence),
      ]
        .flat()
        .find((e) => e.what === "runner's wait for a CPU (runnable, not running)");
      // The verdict judges the runner by the runner-load check's own numbers (one rule): the same figure is shown.
      assert.ok(shown && Math.abs(shown.value - summary.runnerLoad!.runQueueWaitMsPerSec!) < 1e-6, explain(verdict));
      assert.match(verdict.statement, /host-bound: other processes/.test(verdict.statement) ? /pgbb-hog/ : /waited \d+ ms\/s for a CPU/);
    });
  });
});
