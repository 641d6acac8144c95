// A part's second (./part-sample.ts) and its clock correction (runner/core/timing.ts): the pieces a run over several
// processes is merged from, checked without processes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { performance } from "node:perf_hooks";
import { decodeHistogram } from "../../lib/measurement/histogram";
import { mergeSamples } from "../../lib/measurement/parts";
import { RunStats } from "../core/stats";
import { clock, setClockCorrection } from "../core/timing";
import { brokerOperations } from "../../workloads/runtime";
import { tickPart } from "./part-sample";

test("a part's backlog is its own contribution, never clamped: a readers-only queue part's is negative, and the parts' sum is the run's", () => {
  let now = 1000;
  const fake = () => now;
  const writer = new RunStats(["queue"], 0, fake);
  const reader = new RunStats(["queue"], 0, fake);
  const [w, r] = [brokerOperations(writer), brokerOperations(reader)];
  w.write.done(7);
  w.write.latency.record(1500);
  r.groups[0].read.done(5);
  r.groups[0].e2e.latency.record(2500);
  now += 1000;
  const a = tickPart(writer, "measuring").sample;
  const b = tickPart(reader, "measuring").sample;
  assert.deepEqual(a.measures.backlog, { value: 7, combine: "sum" });
  assert.deepEqual(b.measures.backlog, { value: -5, combine: "sum" });
  const meta = (part: number) => ({ runId: "r", part, parts: 2, startSkewMs: 0, clockOffsetMs: 0 });
  const merged = mergeSamples([
    { ...meta(0), ...a },
    { ...meta(1), ...b },
  ]);
  assert.equal(merged.measures.backlog, 2, "7 written, 5 read: 2 waiting");
  // The interval's histograms travel with the counts, so the run's latencies are read from their sum.
  assert.equal(decodeHistogram(a.operations.write.histograms.fromSend!).totalCount, 1);
  assert.equal(decodeHistogram(b.operations.e2e.histograms.fromSend!).totalCount, 1);
  assert.equal(merged.operations.write.count, 7);
  assert.equal(merged.operations.read.count, 5);
});

test("pub/sub's run backlog is its most behind group's, each group's summed over the parts", () => {
  const now = 0;
  const s = new RunStats(["g0", "g1"], 0, () => now);
  const { write, groups } = brokerOperations(s);
  write.done(10);
  groups[0].read.done(10);
  groups[1].read.done(4);
  const { sample } = tickPart(s, "measuring");
  assert.deepEqual(sample.measures.backlog, { value: 0, combine: "maxOverGroups" });
  assert.deepEqual(
    sample.groups?.map((g) => [g.group, g.measures?.backlog]),
    [
      ["g0", { value: 0, combine: "sum" }],
      ["g1", { value: 6, combine: "sum" }],
    ],
  );
});

test("a part's clock is corrected by one addition, set once; a correction that is not a number is refused", () => {
  const raw = () => performance.timeOrigin + performance.now();
  try {
    setClockCorrection(5000);
    const d = clock() - raw();
    assert.ok(d > 4000 && d <= 5000, `corrected by ${d} ms (less the time between the two readings)`);
    assert.throws(() => setClockCorrection(Number.NaN), /a clock correction must be a finite number of ms/);
  } finally {
    setClockCorrection(0);
  }
});
