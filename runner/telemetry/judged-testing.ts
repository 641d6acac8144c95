// A real run judged by the product's verdict beside a sampler of the test's own: what the evidence tests
// (./evidence-runs.test.ts, ./hog-evidence-runs.test.ts) run.
import assert from "node:assert/strict";
import pg from "pg";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload } from "../engine";
import { clock } from "../core/timing";

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

/** Runs `input` on `url` with a separate sampler over its measured window; `onMeasuring` is told when it starts and ends. */
export async function judgedBeside(input: WorkloadInput, url: string, onMeasuring?: (on: boolean) => void) {
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
