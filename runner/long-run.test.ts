// Long runs on a real Postgres (lib/workloads/long-run.ts): the measured window ends once the run's tables have had N
// autovacuum runs, counted by the telemetry, and not before its minimum; without them it runs to its cap; the summary
// says which. On a scratch server whose autovacuum comes round every second at low thresholds, so a small N is reached
// in seconds (the preset's 3 runs, 15 and 60 min are the same code with other numbers: lib/workloads/long-run.test.ts).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { RunSummary } from "../lib/measurement/summary";
import { telemetryText } from "../lib/telemetry/report";
import { startTestServer } from "../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../lib/workloads/config";
import { type EngineOptions, type EngineSample, runWorkload } from "./engine";

let server: Awaited<ReturnType<typeof startTestServer>>;
before(async () => {
  server = await startTestServer([
    ...["-c", "autovacuum_naptime=1"],
    // Every table vacuumed once 20 of its rows are dead (the queue's deletes) or new (its archive's inserts).
    ...["-c", "autovacuum_vacuum_threshold=20", "-c", "autovacuum_vacuum_scale_factor=0"],
    ...["-c", "autovacuum_vacuum_insert_threshold=20", "-c", "autovacuum_vacuum_insert_scale_factor=0"],
  ]);
});
after(async () => {
  await server?.stop();
});

const run = (input: WorkloadInput, onSample?: EngineOptions["onSample"]) =>
  runWorkload(WorkloadConfig.parse(input), server.url("postgres"), { drainSeconds: 5, onSample });
const noteOf = (s: RunSummary) => s.notes?.find((n) => n.startsWith("long run:"));
const QUEUE = { kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 300, warmupSeconds: 1 } as const;

describe("a long run's window", () => {
  test("ends once autovacuum has run N times on the run's tables, after its minimum, well before its cap", async (t) => {
    const samples: EngineSample[] = [];
    const summary = await run({ ...QUEUE, durationSeconds: 120, untilAutovacuums: 8, minDurationSeconds: 3 }, (s) => void samples.push(s));
    const note = noteOf(summary);
    const runs = summary.telemetry!.window!.tables!.autovacuumRuns;
    t.diagnostic(`${note}; ${summary.window.measuredSeconds} s measured, ${runs} autovacuum runs in the window`);
    assert.ok(summary.window.measuredSeconds >= 3, `at least the minimum: ${summary.window.measuredSeconds} s`);
    assert.ok(summary.window.measuredSeconds < 60, `ended long before the 120 s cap: ${summary.window.measuredSeconds} s`);
    assert.ok(runs >= 8, `the window's telemetry counts ${runs} autovacuum runs`);
    assert.match(
      note ?? "",
      /^long run: the measured window ended after \d+ s, once the run's tables had \d+ autovacuum runs \(8 asked; at least 3 s, at most 2 min\)$/,
    );
    // It ended on the count, not long after: the measured seconds before the last three (the one whose reading brought
    // the count to 8, the one being cut then, the partial last one) had fewer. (A reading that came too late for its
    // second is in no sample but in the window's count: the samples' count is at most the window's.)
    const measured = samples.filter((s) => s.phase === "measuring");
    const before = measured.slice(0, -3).reduce((n, s) => n + (s.metrics.telemetry?.tables?.autovacuumRuns ?? 0), 0);
    assert.ok(before < 8, `${before} autovacuum runs before the window's last three seconds (of ${measured.length})`);
    assert.ok(summary.verification.ok, "every message accounted for");
    // The window's sizes, first and last, as the CLI's summary says them (the run page charts every reading's).
    const tb = summary.telemetry!.window!.tables!;
    assert.ok(tb.tableBytesStart! >= 8192 && tb.tableBytesEnd! >= 8192 && tb.indexBytesEnd! >= 8192, JSON.stringify(tb));
    assert.match(
      telemetryText(summary.telemetry!),
      /the run's tables: .*autovacuum .*; tables [\d.]+ [KMG]iB → [\d.]+ [KMG]iB, indexes [\d.]+ [KMG]iB → [\d.]+ [KMG]iB/,
    );
  });

  test("runs to its cap when the autovacuum runs do not come, and the summary says how many did", async () => {
    const summary = await run({ ...QUEUE, durationSeconds: 4, untilAutovacuums: 1000, minDurationSeconds: 2 });
    assert.ok(summary.window.measuredSeconds >= 3.5, `the whole 4 s: ${summary.window.measuredSeconds}`);
    assert.match(noteOf(summary) ?? "", /^long run: the 4 s cap was reached with only \d+ autovacuum runs? of the run's tables \(1,000 asked\)$/);
  });

  test("is refused over several processes and without telemetry, before anything runs", async () => {
    const long = { ...QUEUE, durationSeconds: 60, untilAutovacuums: 3 };
    await assert.rejects(
      runWorkload(WorkloadConfig.parse({ ...long, processes: 2 }), server.url("postgres")),
      /a long run \(until autovacuums\) runs in one process.*set processes to 1/,
    );
    await assert.rejects(runWorkload(WorkloadConfig.parse(long), server.url("postgres"), { telemetry: false }), /needs the server telemetry/);
  });
});
