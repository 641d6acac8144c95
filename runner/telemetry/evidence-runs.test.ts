// The verdict's evidence on real runs against embedded Postgres servers, each checked against what was provoked:
//   the run's "active" share    against a separate sampler (pg_stat_activity every ~0.15 s from another session,
//                                on a timer of the test's own) over the same measured window of a WAL-bound run
//   WAL-flush-bound            commit_delay = 10 ms with commit_siblings = 0 and fsync on: every commit waits
//   lock-contention-bound      the notify workload's modded variant: every commit that NOTIFYs queues on one
//                                global lock
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { startTestServer } from "../../lib/testing";
import type { Verdict } from "../../lib/telemetry/verdict";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload } from "../engine";
import { clock } from "../timing";

const explain = (v: Verdict) => `${v.statement}\n${JSON.stringify(v.findings.filter((f) => f.evidence.length))}`;

/**
 * A sampler apart from the product's: its own session, its own timer (every 100-200 ms), counting the run's
 * client backends (every "pgbb …" session but the telemetry's own) by state while `on()` says so.
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
         WHERE application_name LIKE 'pgbb %' AND application_name NOT LIKE 'pgbb telemetry%' AND state IS NOT NULL`,
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

async function judgedBeside(input: WorkloadInput, url: string) {
  let measuring = false;
  const sampler = separateSampler(url, () => measuring);
  const summary = await runWorkload(WorkloadConfig.parse(input), url, { drainSeconds: 2, onPhase: (p) => (measuring = p === "measuring") });
  const separate = await sampler.stop();
  const t = summary.telemetry;
  assert.ok(t?.window, "the summary carries the telemetry window");
  return { verdict: t.verdict, window: t.window, info: t.info, separate };
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
      { kind: "queue", writers: 8, readers: 2, durationSeconds: 5, warmupSeconds: 1 },
      server.url("postgres"),
    );
    t.diagnostic(
      `${verdict.statement}; verdict active ${window.runActiveShare.toFixed(2)} over ${window.waitReadings} readings, separate sampler ${separate.activeShare.toFixed(2)} over ${separate.readings} backend-readings`,
    );
    assert.equal(info.waits?.kind, "pg_stat_activity", "the embedded server has no pg_wait_sampling: the runner samples");
    assert.ok(separate.readings > 0, "the separate sampler read the run's backends");
    assert.ok(
      Math.abs(window.runActiveShare - separate.activeShare) <= 0.15,
      `active share: verdict ${window.runActiveShare.toFixed(3)}, separate sampler ${separate.activeShare.toFixed(3)}`,
    );
    assert.equal(verdict.category, "wal-flush-bound", explain(verdict));
    assert.ok(!verdict.also.includes("connection-bound") && !verdict.also.includes("client-bound"), explain(verdict));
  });
});
