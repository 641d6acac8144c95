// Long runs (./long-run.ts): when the window ends, what its config may say, the summary's note on why it ended,
// and a long-run preset on every queue-like workload that parses as the window the issue asks for.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { knobsLabel } from "../runs/format";
import { presetById, WorkloadConfig } from "./config";
import { partsProblem } from "./parts";
import { LONG_RUN, longRunConfigProblem, longRunEnded, longRunNote, longRunOf, longRunRunProblem } from "./long-run";

const long = longRunOf({ durationSeconds: 3600, untilAutovacuums: 3, minDurationSeconds: 900 })!;

describe("a long run's end", () => {
  test("ends once the autovacuum runs are reached and the minimum has passed, not before either", () => {
    assert.equal(longRunEnded(long, 100, 5), false, "enough runs, but before the minimum");
    assert.equal(longRunEnded(long, 1200, 2), false, "past the minimum, too few runs");
    assert.equal(longRunEnded(long, 900, 3), true);
    assert.equal(longRunOf({ durationSeconds: 30 }), null, "without untilAutovacuums the window runs its duration");
    assert.equal(longRunOf({ durationSeconds: 30, untilAutovacuums: 2 })!.minSeconds, 0, "no minimum unless one is set");
  });

  test("the note says why the window ended: the runs reached after how long, the cap with only K, or the workload's own end", () => {
    assert.match(
      longRunNote(long, { elapsedSeconds: 1230, autovacuums: 4 }),
      /ended after 20\.5 min, once the run's tables had 4 autovacuum runs \(3 asked; at least 15 min, at most 60 min\)/,
    );
    assert.match(
      longRunNote(long, { elapsedSeconds: 3600, autovacuums: 1 }),
      /the 60 min cap was reached with only 1 autovacuum run of the run's tables \(3 asked\)/,
    );
    assert.match(
      longRunNote(longRunOf({ durationSeconds: 60, untilAutovacuums: 3, minDurationSeconds: 900 })!, { elapsedSeconds: 60, autovacuums: 4 }),
      /the 60 s cap was reached before the 15 min minimum, with 4 autovacuum runs of the run's tables \(3 asked\)/,
    );
    assert.match(longRunNote(long, { elapsedSeconds: 90, autovacuums: 0 }), /the workload finished its window after 90 s, with 0 autovacuum runs/);
  });

  test("a config's minimum needs its count; the engine needs telemetry and one process", () => {
    assert.equal(longRunConfigProblem({ untilAutovacuums: 3, minDurationSeconds: 900 }), null);
    assert.equal(longRunConfigProblem({ minDurationSeconds: 30 })?.path, "minDurationSeconds");
    const bad = WorkloadConfig.safeParse({ kind: "queue", durationSeconds: 60, minDurationSeconds: 30 });
    assert.ok(!bad.success);
    assert.match(bad.error.issues.map((i) => i.message).join("; "), /Minimum duration only applies with Until autovacuums/);
    // A minimum beyond the cap is the form's short window of a long preset: the window ends at its cap.
    assert.ok(WorkloadConfig.safeParse({ kind: "queue", durationSeconds: 60, untilAutovacuums: 3, minDurationSeconds: 900 }).success);
    assert.equal(longRunEnded(longRunOf({ durationSeconds: 60, untilAutovacuums: 3, minDurationSeconds: 900 })!, 60, 5), false);
    assert.match(longRunRunProblem({ durationSeconds: 60, untilAutovacuums: 3 }, false)!, /needs the server telemetry/);
    assert.equal(longRunRunProblem({ durationSeconds: 60 }, false), null, "not a long run: nothing to refuse");
    // Over processes: refused where every split is (the form, the API, the engine), under the processes field.
    const split = WorkloadConfig.parse({ kind: "queue", durationSeconds: 60, untilAutovacuums: 3, processes: 2 });
    assert.match(partsProblem(split)!, /a long run \(until autovacuums\) runs in one process.*set processes to 1 \(it is 2\)/);
    assert.equal(partsProblem({ ...split, processes: 1 }), null);
  });
});

test("a long run's knob in words, beside the workload's own: its count, its minimum, the duration its cap", () => {
  const c = WorkloadConfig.parse(presetById("queue-long-run")!.config);
  assert.match(knobsLabel(c), /3,600 s measured · until 3 autovacuum runs, at least 15 min \(the duration its cap\)/);
  assert.doesNotMatch(knobsLabel(WorkloadConfig.parse({ kind: "queue" })), /autovacuum/);
});

describe("the long-run presets", () => {
  // The workloads whose consumers leave dead rows behind (deleted, updated or completed jobs): where vacuum matters.
  const QUEUE_LIKE = ["queue", "pubsub", "jobqueue", "graphile-worker", "pg-boss", "queued-workflows"];
  for (const kind of QUEUE_LIKE)
    test(`${kind} has one: at least 15 min, until 3 autovacuum runs, at most 60 min`, () => {
      const preset = presetById(`${kind}-long-run`);
      assert.ok(preset, `${kind}-long-run exists`);
      const c = WorkloadConfig.parse(preset.config) as unknown as Record<string, unknown>;
      assert.equal(c.kind, kind);
      assert.deepEqual([c.minDurationSeconds, c.untilAutovacuums, c.durationSeconds], [LONG_RUN.minDurationSeconds, 3, 3600]);
      assert.deepEqual([LONG_RUN.minDurationSeconds, LONG_RUN.durationSeconds], [15 * 60, 60 * 60]);
    });
});
