// The merge of a run's parts (./parts.ts, ./merge-summaries.ts) on real HDR histograms: exact, never averaged.
import assert from "node:assert/strict";
import { test } from "node:test";
import { encodeHistogram, type Histogram, newHistogram, percentilesOf, recordMicros } from "./histogram";
import { mergeSamples, type PartSample } from "./parts";
import { mergeVerifications } from "./merge-summaries";
import type { SampleRunnerLoad } from "./runner-load";

/** A deterministic spread of values (µs) around `base`, with a tail. */
function values(seed: number, n: number, base: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    const u = x / 2147483648;
    return base * (0.5 + u) + (u > 0.97 ? base * 40 * u : 0);
  });
}

const record = (hs: Histogram[], vs: number[]) => {
  for (const v of vs) for (const h of hs) recordMicros(h, v);
};

function part(i: number, extra: Partial<PartSample> = {}): PartSample {
  return {
    runId: "run-1",
    part: i,
    parts: 2,
    phase: "measuring",
    elapsedSec: 5,
    intervalSec: 1,
    operations: {},
    measures: {},
    errors: [],
    startSkewMs: i * 2,
    clockOffsetMs: 0,
    ...extra,
  };
}

test("merged percentiles are exactly those of one histogram of all the values; averaging the parts' would not be", () => {
  const all = newHistogram();
  const hs = [newHistogram(), newHistogram(), newHistogram()];
  record([hs[0], all], values(1, 3000, 1000)); // a fast part, ~1 ms
  record([hs[1], all], values(2, 500, 20_000)); // a slow part, ~20 ms with a tail
  record([hs[2], all], values(3, 1200, 4000));
  const parts = hs.map((h, i) =>
    part(i, { parts: 3, operations: { write: { count: h.totalCount, errors: 0, histograms: { fromSend: encodeHistogram(h) } } } }),
  );
  const merged = mergeSamples(parts).operations.write.latency.fromSend!;
  assert.deepEqual(merged, percentilesOf(all));
  const mean = (k: "p50" | "p99") => hs.reduce((a, h) => a + percentilesOf(h)[k], 0) / hs.length;
  assert.notEqual(mean("p99"), merged.p99, "the mean of the parts' p99s is another number");
  assert.ok(Math.abs(mean("p50") - merged.p50) > 0.1 * merged.p50, `mean of p50s ${mean("p50")} vs the true ${merged.p50}`);
});

test("counts, errors, bytes, batches and counters add; the rate is the total over the second's span", () => {
  const h = newHistogram();
  recordMicros(h, 900, 10);
  const op = (count: number, errors: number) => ({
    count,
    errors,
    bytes: count * 100,
    batches: count / 10,
    counters: { emptyPolls: errors + 1 },
    histograms: { fromSend: encodeHistogram(h) },
  });
  const m = mergeSamples([part(1, { elapsedSec: 5.02, operations: { read: op(300, 2) } }), part(0, { operations: { read: op(500, 1) } })]);
  const r = m.operations.read;
  assert.deepEqual([r.count, r.errors, r.bytes, r.batches, r.counters], [800, 3, 80_000, 80, { emptyPolls: 5 }]);
  assert.equal(m.elapsedSec, 5.02);
  assert.ok(Math.abs(m.intervalSec - 1.02) < 1e-9, "from the earliest part's start (4.0 s) to the latest end (5.02 s)");
  assert.equal(r.perSecond, 800 / m.intervalSec);
  assert.equal(r.latency.fromSend!.count, 20);
});

test("groups merge by name; a backlog sums over parts per group, the run's is its most behind group's", () => {
  const g = (group: string, backlog: number) => ({
    group,
    operations: { read: { count: backlog * 10, errors: 0, histograms: {} } },
    measures: { backlog: { value: backlog, combine: "sum" as const } },
  });
  const pubsub = (i: number, b0: number, b1: number) =>
    part(i, { groups: [g("g0", b0), g("g1", b1)], measures: { backlog: { value: Math.max(b0, b1), combine: "maxOverGroups" } } });
  const m = mergeSamples([pubsub(0, 3, 1), pubsub(1, 4, 10)]);
  assert.deepEqual(
    m.groups?.map((x) => [x.group, x.measures?.backlog, x.operations.read.count]),
    [
      ["g0", 7, 70],
      ["g1", 11, 110],
    ],
  );
  assert.equal(m.measures.backlog, 11, "not the parts' maxima summed (13) nor their largest (10)");
  // A queue's backlog: each part's writers' items, summed.
  const q = (i: number, b: number) => part(i, { measures: { backlog: { value: b, combine: "sum" } } });
  assert.equal(mergeSamples([q(0, 5), q(1, 7)]).measures.backlog, 12);
  assert.throws(
    () => mergeSamples([q(0, 5), part(1, { measures: { backlog: { value: 1, combine: "max" } } })]),
    /part 1 combines the run's measure "backlog" by max, part 0 by sum/,
  );
});

test("each part's load is kept and the worst part named; its load is the run's runnerLoad; errors name their parts", () => {
  const load = (cpuCores: number, wait: number, p99: number): SampleRunnerLoad => ({
    loopDelayMs: { p50: 1, p99, max: p99 * 2 },
    cpuCores,
    eventLoopUtilization: 0.5,
    runQueueWaitMsPerSec: wait,
  });
  const starved = load(0.5, 400, 40);
  const m = mergeSamples([part(0, { runnerLoad: load(0.6, 5, 2), errors: ["timeout", "reset"] }), part(1, { runnerLoad: starved, errors: ["timeout"] })], {
    serviceMs: 2,
  });
  assert.equal(m.processes?.worst, 1);
  assert.deepEqual(m.runnerLoad, starved);
  assert.deepEqual(
    m.processes?.parts.map((p) => [p.part, p.startSkewMs, p.runnerLoad?.cpuCores]),
    [
      [0, 0, 0.6],
      [1, 2, 0.5],
    ],
  );
  assert.deepEqual(m.errors, ["timeout (parts 0, 1)", "reset (part 0)"]);
});

test("mismatched parts are refused, naming the part", () => {
  assert.throws(() => mergeSamples([part(0), part(1, { runId: "run-2" })]), /part 1 is of run run-2, part 0 of run run-1/);
  assert.throws(() => mergeSamples([part(0)]), /part\(s\) 1 of 2 missing/);
  assert.throws(() => mergeSamples([part(0), part(0)]), /part 0 is given twice/);
  assert.throws(() => mergeSamples([part(0), part(1, { elapsedSec: 6 })]), /part 1's second ends at 6\.000 s, part 0's at 5\.000 s/);
  assert.throws(() => mergeSamples([part(0), part(1, { phase: "draining" })]), /part 1's second is in draining, part 0's in measuring/);
  assert.throws(() => mergeSamples([part(0), { ...part(1), intervalSec: 0 }]), /part at position 1: its sample is not valid \(intervalSec/);
  assert.throws(() => mergeSamples([]), /no parts to merge/);
  const bad = { write: { count: 1, errors: 0, histograms: { fromSend: "not-a-histogram" } } };
  assert.throws(() => mergeSamples([part(0), part(1, { operations: bad })]), /part 1's write fromSend histogram: not a valid encoded HDR histogram/);
  // Each part within the tolerance of the first, but the two others 0.4 s apart.
  assert.throws(
    () => mergeSamples([part(0, { parts: 3 }), part(1, { parts: 3, elapsedSec: 4.8 }), part(2, { parts: 3, elapsedSec: 5.2 })]),
    /part 2's second ends at 5\.200 s, part 1's at 4\.800 s/,
  );
  // Within the tolerance: the same second.
  assert.equal(mergeSamples([part(0), part(1, { elapsedSec: 5.1 })]).elapsedSec, 5.1);
});

test("verification: ok only if every part's is; checked and counts add, yes/no facts hold only if everywhere; problems name the part", () => {
  const v = (lost: number, match: boolean, problems: string[] = []) => ({
    ok: lost === 0 && match,
    checked: 100,
    unit: "message",
    problems,
    facts: [
      { name: "lost", value: lost, ok: lost === 0 },
      { name: "runner counts match the target's rows", value: match, ok: match },
    ],
  });
  const good = mergeVerifications([
    { part: 0, v: v(0, true) },
    { part: 1, v: v(0, true) },
  ]);
  assert.deepEqual([good.ok, good.checked, good.facts.map((f) => f.value)], [true, 200, [0, true]]);
  const bad = mergeVerifications([
    { part: 0, v: v(0, true) },
    { part: 1, v: v(3, false, ["3 messages lost"]) },
    { part: 2, v: v(2, true, ["2 messages lost"]) },
  ]);
  assert.deepEqual(
    [bad.ok, bad.checked, bad.facts.map((f) => [f.value, f.ok]), bad.problems],
    [
      false,
      300,
      [
        [5, false],
        [false, false],
      ],
      ["part 1: 3 messages lost", "part 2: 2 messages lost"],
    ],
  );
  assert.throws(
    () =>
      mergeVerifications([
        { part: 0, v: v(0, true) },
        { part: 1, v: { ...v(0, true), unit: "row" } },
      ]),
    /part 1 verified rows/,
  );
});
