// What the ceiling search's end-to-end files share (./ceiling.test.ts, ./ceiling-paths.test.ts): a target of known
// capacity, the search's options for it, and the words of its steps.
//
// A ceiling found on this machine as it is would move with whatever else runs on its 2 shared cores, and a
// confirmation at exactly that rate would pass or fail by luck. So the target is given a capacity of its own:
// every row inserted into a queue table first sleeps in a trigger (an event trigger adds it to each run's queue
// table as the workload creates it, and restarts the count of rows that run inserted), so 10 writers of 50 ms
// inserts cannot pass 200 msg/s whatever the machine does. The search grows ×3 from 30 msg/s and stops at a
// bracket 200% wide: 30 and 90 msg/s (45% of the capacity) are sustained with room to spare on a loaded
// machine, 270 msg/s cannot be, and the confirmation runs at 90 msg/s. The latency goals are loose for the same
// reason: the steps are decided by the rate the server can take, which the trigger fixes, not by scheduling noise.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import pg from "pg";
import { goalMetric } from "../../lib/ceiling/facts";
import { SEARCH_DEFAULTS } from "../../lib/ceiling/search";
import { parseSlo, type Slo } from "../../lib/ceiling/slo";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig } from "../../lib/workloads/config";
import type { CeilingOptions, CeilingStep } from "./driver";

let db: { url: string; drop: () => Promise<void> };
/** The test database's own connection (the capacity's settings, and what a test reads back). */
export let admin: pg.Client;

/** Registers the test file's hooks: a database of its own whose queue tables take the capacity set by `capacity`. */
export function useCapacityTarget(label: string) {
  before(async () => {
    db = await testDatabase(label);
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query(`
    CREATE TABLE public.capacity (sleep float8 NOT NULL, after bigint, slower float8);
    INSERT INTO public.capacity VALUES (0.05, NULL, NULL);
    CREATE SEQUENCE public.rows_in_run;
    CREATE FUNCTION public.slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE c record;
    BEGIN
      SELECT * INTO c FROM public.capacity;
      IF c.after IS NOT NULL AND nextval('public.rows_in_run') > c.after THEN PERFORM pg_sleep(c.slower);
      ELSE PERFORM pg_sleep(c.sleep);
      END IF;
      RETURN NEW;
    END $$;
    CREATE FUNCTION public.slow_queue_tables() RETURNS event_trigger LANGUAGE plpgsql AS $$
    DECLARE r record;
    BEGIN
      FOR r IN SELECT * FROM pg_event_trigger_ddl_commands() WHERE object_type = 'table' LOOP
        IF r.object_identity LIKE '%.queue' THEN
          EXECUTE format('CREATE TRIGGER slow BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION public.slow_insert()', r.object_identity);
          PERFORM setval('public.rows_in_run', 1, false);
        END IF;
      END LOOP;
    END $$;
    CREATE EVENT TRIGGER slow_queue_tables ON ddl_command_end WHEN TAG IN ('CREATE TABLE') EXECUTE FUNCTION public.slow_queue_tables();
  `);
  });
  after(async () => {
    await admin.query("DROP EVENT TRIGGER IF EXISTS slow_queue_tables").catch(() => undefined);
    await admin.end();
    await db.drop();
  });
}

/** Each insert sleeps `sleep` s; with `after`, the rows of a run past that many sleep `slower` s instead. */
export const capacity = (sleep: number, after: number | null = null, slower: number | null = null) =>
  admin.query("UPDATE public.capacity SET sleep = $1, after = $2, slower = $3", [sleep, after, slower]);

export const slo = (text: string): Slo => {
  const r = parseSlo(text);
  assert.ok(r.ok);
  return r.slo;
};
export const metric = (() => {
  const m = goalMetric("queue");
  assert.ok(m.ok);
  return m.metric;
})();

export function options(over: Partial<CeilingOptions> = {}): CeilingOptions {
  return {
    base: WorkloadConfig.parse({ kind: "queue", writers: 10, readers: 2, payloadBytes: 100, durationSeconds: 3, warmupSeconds: 1, reportIntervalSeconds: 1 }),
    targetUrl: db.url,
    // On p90, which 25 samples decide (a p99 needs 268: these 2 s steps at 30 msg/s would run longer to reach it,
    // lib/ceiling/interval.ts); the rate, not the latency, decides these steps.
    slo: slo("p90<1s"),
    metric,
    stepSeconds: 2,
    confirmSeconds: 4,
    warmupSeconds: 1,
    search: { ...SEARCH_DEFAULTS, startRate: 30, maxRate: 10_000, growth: 3, precision: 2.5, maxSteps: 6 },
    ...over,
  };
}

export const lines = (steps: CeilingStep[]) =>
  steps
    .map(
      (s) =>
        `${s.confirmation ? "confirm " : ""}${s.rate}: ${s.sustained ? "sustained" : s.verdict.failures.map((f) => f.message).join("; ")}${s.starved ? ` [starved: ${s.verdict.starved}]` : ""} (runner ${s.client?.cpuCores.toFixed(2)} cores, main thread ran ${s.client?.mainRunShare?.toFixed(2)} waited ${s.client?.runQueueShare?.toFixed(2)}, stall ${s.client?.exposedDelayMs?.toFixed(0)} ms)`,
    )
    .join("\n");

/** Stalls the runner's own event loop: `busyMs` of busy loop every `everyMs`, until stopped. */
export function stall(busyMs: number, everyMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const spin = () => {
    const end = performance.now() + busyMs;
    while (performance.now() < end);
    timer = setTimeout(spin, everyMs - busyMs);
  };
  timer = setTimeout(spin, 0);
  return () => clearTimeout(timer);
}

/**
 * A machine this test shares may starve the runner for every try of a step: the search then stops "starved"
 * rather than conclude (the product's honest answer), having confirmed the rate below the starved one where it
 * could. That outcome is checked for what it must say, and the rest of the test, which needs the steps measured,
 * is left to a machine that lets them be.
 */
export function stoppedStarved(
  r: { stop: string; steps: { starved?: boolean; rate: number; confirmation?: boolean }[]; confirmation?: { rate: number } },
  text: string,
): boolean {
  if (r.stop !== "starved") return false;
  const starvedOut = r.steps.findIndex((s, i) => i >= 2 && [0, 1, 2].every((k) => r.steps[i - k].starved && r.steps[i - k].rate === s.rate));
  assert.ok(starvedOut >= 0, `three starved tries of one rate end it\n${text}`);
  const rate = r.steps[starvedOut].rate;
  if (r.steps[starvedOut].confirmation) assert.ok(!r.confirmation || r.confirmation.rate < rate, `a rate whose confirmation starved is not confirmed\n${text}`);
  else if (r.confirmation) assert.ok(r.confirmation.rate < rate, `what is confirmed is below the rate the runner could not drive\n${text}`);
  return true;
}
