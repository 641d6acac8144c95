// exercise(): a workload's short real runs against the embedded Postgres. Through the engine (runner/engine.ts
// runWorkload) in one process: verified, and each paced write batch sent as declared (the definition's
// writeBatch, the ceiling's rounding tolerance); over 2 processes (runner/parts/): verified over every part, the
// merged totals the parts' sum; and after each, the target as it was (no schema, extension or pg_cron job left).
import assert from "node:assert/strict";
import pg from "pg";
import { rateKnob } from "../../lib/ceiling/rate";
import { throughputOf } from "../../lib/measurement/operations";
import type { RunSummary } from "../../lib/measurement/summary";
import { definitionOf, WorkloadConfig } from "../../lib/workloads/config";
import { runWorkload, verificationError } from "../../runner/harness";
import type { WorkloadHooks } from "../hooks";
import { type WorkloadDefinition, writeBatchOf } from "../types";

/** About 20 scheduled times a second: a rate every workload keeps up with on a busy machine (a batch each). */
const TIMES_PER_SECOND = 20;
/** Measured seconds of a short run: 40 scheduled times, so one more or less at the window's ends stays in 20%. */
const SHORT_SECONDS = 2;

/** The default preset made small (the hooks' `small`), measured for `seconds`, no warm-up, with `more` set. */
export function shortConfig(def: WorkloadDefinition, hooks: WorkloadHooks, more: Record<string, unknown> = {}): WorkloadConfig {
  const preset = def.presets.find((p) => p.id === def.defaultPresetId)!;
  const input = hooks.small ? hooks.small(preset.config as Record<string, unknown>) : (preset.config as Record<string, unknown>);
  return WorkloadConfig.parse({ ...input, kind: def.kind, durationSeconds: SHORT_SECONDS, warmupSeconds: 0, ...more });
}

/** What a run may leave on the target: its schemas, extensions and pg_cron jobs (none, once it has ended). */
async function footprintOf(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const schemas = await c.query<{ n: string }>(`SELECT nspname AS n FROM pg_namespace WHERE nspname LIKE 'pgbb\\_%' ORDER BY 1`);
    const extensions = await c.query<{ n: string }>("SELECT extname AS n FROM pg_extension ORDER BY 1");
    const cron = await c.query("SELECT 1 FROM pg_namespace WHERE nspname = 'cron'");
    const jobs = cron.rowCount ? (await c.query<{ n: string }>("SELECT jobname AS n FROM cron.job ORDER BY 1")).rows : [];
    return { schemas: schemas.rows.map((r) => r.n), extensions: extensions.rows.map((r) => r.n), cronJobs: jobs.map((r) => r.n) };
  } finally {
    await c.end();
  }
}

/** Runs `run` and checks the target is left as it was found. */
async function leftClean<T>(url: string, what: string, run: () => Promise<T>): Promise<T> {
  const before = await footprintOf(url);
  const out = await run();
  assert.deepEqual(await footprintOf(url), before, `${what}: the target is not as it was found`);
  return out;
}

/** One short run through the engine in one process: verified, its batches as declared, the target left clean. */
export async function engineRun(def: WorkloadDefinition, hooks: WorkloadHooks, url: string) {
  const knob = rateKnob(def.kind);
  const base = shortConfig(def, hooks);
  const declared = writeBatchOf(definitionOf(base), base as never);
  const config = knob ? ({ ...knob.set(base, TIMES_PER_SECOND * declared), durationSeconds: SHORT_SECONDS, warmupSeconds: 0 } as WorkloadConfig) : base;
  // The scheduled times of the writes that ended in the measured window, as the summary counts them.
  const dues = new Set<number>();
  let measuring = false;
  const summary = await leftClean(url, `${def.kind}, one process`, () =>
    runWorkload(config, url, {
      drainSeconds: 5,
      telemetry: false,
      onPhase: (p) => void (measuring = p === "measuring"),
      onScheduledWrite: (due) => void (measuring && dues.add(due)),
    }),
  );
  assert.equal(summary.verification.ok, true, `${def.kind}: ${verificationError(summary)}`);
  assert.ok(summary.verification.checked > 0, `${def.kind}: verification checked nothing`);
  if (hooks.checked) assert.equal(summary.verification.checked, hooks.checked(summary), `${def.kind}: checked = the items the run counted`);
  if (!knob) return;
  const written = throughputOf(summary, knob.paced)?.count ?? 0;
  assert.ok(written > 0, `${def.kind}: nothing was written`);
  // A workload that reports no scheduled time paces one request per scheduled time, which it must then declare.
  const sent = dues.size ? written / dues.size : 1;
  assert.ok(
    Math.abs(sent / declared - 1) < 0.2,
    `${def.kind} sends ${sent.toFixed(2)} paced writes per scheduled time (${written} over ${dues.size}) but declares a write batch of ${declared}`,
  );
}

/** Each declared rate operation's count in the merged summary against the sum of the parts' (rate × their window). */
function mergedIsSum(def: WorkloadDefinition, s: RunSummary) {
  const parts = s.manifest.parts ?? [];
  for (const op of def.metrics.operations.filter((o) => o.rate)) {
    const merged = throughputOf(s, op.name)?.count ?? 0;
    const sum = parts.reduce((a, p) => a + (p.perSecond[op.name] ?? 0) * p.measuredSeconds, 0);
    // Each part's rate is its count over its own window, stored to a few decimals: a fraction of an item each.
    assert.ok(Math.abs(merged - sum) <= parts.length, `${def.kind}: ${op.name} merged ${merged}, the parts' sum ${sum.toFixed(2)}`);
  }
}

/** Where it splits: a short run over 2 processes, verified over every part, the merge exact, the target clean. */
export async function twoProcessRun(def: WorkloadDefinition, hooks: WorkloadHooks, url: string, partEntry?: string) {
  if (!def.parts) return;
  const config = shortConfig(def, hooks, { processes: 2, durationSeconds: 1 });
  assert.ok(def.parts.max(config as never) >= 2, `${def.kind}: its short config cannot split in 2 (set its hooks' small)`);
  const s = await leftClean(url, `${def.kind}, two processes`, () =>
    // A silence bound no busy machine reaches (a forked part beside Playwright once went past the 5 s default): these
    // runs judge the split and the merge.
    runWorkload(config, url, { drainSeconds: 3, telemetry: false, partsForTest: { silenceMs: 30_000, ...(partEntry ? { entry: partEntry } : {}) } }),
  );
  assert.equal(s.verification.ok, true, `${def.kind} over 2 processes: ${verificationError(s)}`);
  const parts = s.manifest.parts ?? [];
  assert.equal(new Set(parts.map((p) => p.pid)).size, 2, `${def.kind}: two part processes`);
  mergedIsSum(def, s);
  if (hooks.checked) assert.equal(s.verification.checked, hooks.checked(s), `${def.kind} over 2 processes: checked = every part's items`);
  else assert.ok(s.verification.checked > 0, `${def.kind} over 2 processes: verification checked nothing`);
  hooks.overTwoProcesses?.(s);
}
