// An A/B names every run whose verdict found the runner starved or the host shared, not only those where that was
// the headline: a closed loop meeting the rate its think time offers is rate-bound, with client-bound under
// "also", and its latencies carry the runner's delay all the same. Real runs, their verdicts as stored.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { testDatabase } from "../testing";
import { WorkloadConfig } from "../workloads/config";
import { runWorkload } from "../../runner/engine";
import type { RunSummary } from "../measurement/summary";
import { abStats } from "./ab-stats";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("ab_flagged");
});
after(async () => db.drop());

test("a run with client-bound under 'also' is flagged beside the deltas", async () => {
  const base = WorkloadConfig.parse({ kind: "cache", vus: 2, thinkMs: 50, keys: 200, pool: 2, durationSeconds: 1, warmupSeconds: 0 });
  const run = async (variant: "baseline" | "modded") => runWorkload(WorkloadConfig.parse({ ...base, variant }), db.url);
  const [b, m]: RunSummary[] = [await run("baseline"), await run("modded")];
  // The stored verdict of a rate-bound run whose runner was also found starved (as the verdict writes it).
  const v = b.telemetry!.verdict;
  b.telemetry!.verdict = { ...v, category: "rate-bound", also: ["client-bound"] };
  m.telemetry!.verdict = { ...m.telemetry!.verdict, category: "rate-bound", also: [] };
  // The runner's own load check is a flag of its own (this busy machine may raise it): only the verdict's here.
  for (const s of [b, m]) delete s.runnerLoad;
  const st = abStats([{ pair: 1, first: "baseline", runs: { baseline: { id: "b1", summary: b }, modded: { id: "m1", summary: m } } }]);
  const note = st.notes.find((n) => n.startsWith("Flagged runs"));
  assert.ok(note, st.notes.join("\n"));
  assert.match(note, /b1 \(baseline, pair 1: verdict client-bound \(beside rate-bound\)\)/, note);
  assert.doesNotMatch(note, /m1/, note);
});
