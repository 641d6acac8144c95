// Each condition of "sustained" on its own: a step that meets every other condition fails exactly the one
// broken, and says so with the numbers. Also the latency goal's parser.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { LatencyStats } from "../measurement/metrics";
import { SEARCH_DEFAULTS, searchCeiling } from "./search";
import { parseSlo, type Slo, sloText } from "./slo";
import { type ClientLoad, judgeStep, slope, type StepFacts, verdictText } from "./verdict";

const lat = (p99: number, p50 = p99 / 4): LatencyStats => ({ p50, p90: p99 * 0.8, p95: p99 * 0.9, p99, p999: p99 * 1.5, max: p99 * 2, mean: p50, count: 5000 });
/** The runner's load over the window: its CPU, its loop's stall, its main thread's run-queue wait (it ran 10%);
 *  the operation takes 2 ms. */
function load(cpuCores: number, delayMs: number, runQueueShare: number | null = 0.02): ClientLoad {
  return { cpuCores, eventLoopP99Ms: delayMs, exposedDelayMs: delayMs, runQueueShare, mainRunShare: 0.1, serviceMs: 2 };
}
const idle = load(0.3, 0.5);
const goal = (text: string): Slo => {
  const r = parseSlo(text);
  if (!r.ok) throw new Error(r.message);
  return r.slo;
};
const P99_50 = goal("p99<50ms");

/** A healthy step at 1,000 msg/s over 10 s: flat backlog, readers at pace, e2e p99 20 ms, idle runner. */
function facts(o: Partial<StepFacts> = {}): StepFacts {
  return {
    unit: "msg",
    targetRate: 1000,
    achievedRate: 999,
    measuredSeconds: 10,
    readRate: 1000,
    fanOut: 1,
    backlog: Array.from({ length: 10 }, (_, i) => ({ t: 5 + i, items: i % 2 ? 12 : 4 })),
    backlogSlack: 11,
    writeBatch: 1,
    latency: { name: "e2e", label: "end-to-end", stats: lat(20) },
    errors: { count: 0, messages: [] },
    client: idle,
    ...o,
  };
}
const failed = (f: StepFacts, slo = P99_50) => judgeStep(f, slo).failures.map((x) => x.condition);

describe("step verdict", () => {
  test("a healthy step is sustained, with nothing failed", () => {
    const v = judgeStep(facts(), P99_50);
    assert.equal(v.sustained, true);
    assert.deepEqual(v.failures, []);
    assert.equal(verdictText(v), "sustained");
  });

  test("achieved rate: more than 2% short of the target fails, naming both rates", () => {
    assert.deepEqual(failed(facts({ achievedRate: 981, readRate: 981 })), []);
    const v = judgeStep(facts({ achievedRate: 975, readRate: 975 }), P99_50);
    assert.deepEqual(
      v.failures.map((x) => x.condition),
      ["rate"],
    );
    assert.match(v.failures[0].message, /achieved 975 msg\/s of the 1,000 msg\/s target \(2\.5% short; at most 2% allowed\)/);
  });

  test("rates are known to one write batch: a batched workload's window may hold one batch less", () => {
    // 100-message batches at 500 msg/s over 5 s: one batch is 20 msg/s, 4% of the rate.
    const batched = { targetRate: 500, measuredSeconds: 5, writeBatch: 100, fanOut: 5 };
    assert.deepEqual(failed(facts({ ...batched, achievedRate: 480, readRate: 2400 })), []);
    const v = judgeStep(facts({ ...batched, achievedRate: 460, readRate: 2000 }), P99_50);
    assert.deepEqual(
      v.failures.map((x) => x.condition),
      ["rate", "readers"],
    );
    assert.match(v.failures[0].message, /8% short; at most 2% and one 100-message batch allowed/);
    assert.match(v.failures[1].message, /at most 2% and one 100-message batch per group allowed/);
  });

  test("backlog: judged on the slope over every sample, not on the window's two ends", () => {
    // Rising steadily by 30 msg/s: 300 over the window, above 1% of the 10,000 written.
    const rising = Array.from({ length: 10 }, (_, i) => ({ t: 5 + i, items: 30 * i }));
    const v = judgeStep(facts({ backlog: rising }), P99_50);
    assert.deepEqual(
      v.failures.map((x) => x.condition),
      ["backlog"],
    );
    assert.match(v.failures[0].message, /grew by 30 msg\/s \(300 messages over the 10 s window; at most 100 allowed\)/);
    // A sawtooth (batches in flight) that happens to start at its bottom and end at its top: the ends differ by
    // 110, above the 100 allowed, while the backlog does not grow (slope about 5 msg/s, 51 over the window).
    const saw = [0, 110, 60, 0, 110, 60, 0, 110, 60, 110].map((items, i) => ({ t: 5 + i, items }));
    assert.ok(saw[9].items - saw[0].items > 100, "the endpoints alone would fail it");
    assert.deepEqual(failed(facts({ backlog: saw })), []);
    // A workload without a backlog has nothing to check.
    assert.equal(judgeStep(facts({ backlog: null }), P99_50).backlogSlopePerSec, null);
  });

  test("slope is the least-squares slope", () => {
    assert.equal(slope([{ t: 0, items: 1 }]), 0);
    assert.equal(
      slope([
        { t: 0, items: 0 },
        { t: 1, items: 2 },
        { t: 2, items: 4 },
      ]),
      2,
    );
  });

  test("readers keep up with the fan-out: reads must be writes × groups", () => {
    assert.deepEqual(failed(facts({ fanOut: 5, readRate: 4990 })), []);
    const v = judgeStep(facts({ fanOut: 5, readRate: 4000 }), P99_50);
    assert.deepEqual(
      v.failures.map((x) => x.condition),
      ["readers"],
    );
    assert.match(v.failures[0].message, /readers read 4,000 msg\/s; the 999 msg\/s written × 5 groups need 4,995 msg\/s \(19\.9% short/);
  });

  test("latency goal: every bound is checked on the chosen metric, and a missing latency fails", () => {
    const v = judgeStep(facts({ latency: { name: "writeScheduled", label: "write from schedule", stats: lat(80, 30) } }), goal("p50<10ms,p99<50ms"));
    assert.deepEqual(
      v.failures.map((x) => x.condition),
      ["latency"],
    );
    assert.equal(v.failures[0].message, "write from schedule p50 30 ms ≥ the goal's 10 ms; write from schedule p99 80 ms ≥ the goal's 50 ms");
    assert.deepEqual(failed(facts({ latency: { name: "e2e", label: "end-to-end", stats: lat(50) } }), goal("p99<=50ms")), []);
    assert.deepEqual(failed(facts({ latency: { name: "e2e", label: "end-to-end", stats: lat(50) } }), goal("p99<50ms")), ["latency"]);
    const none = judgeStep(facts({ latency: { name: "e2e", label: "end-to-end", stats: undefined } }), P99_50);
    assert.match(none.failures[0].message, /no end-to-end latency was measured/);
  });

  test("errors: any failed operation or verification problem fails the step, quoting it", () => {
    const v = judgeStep(facts({ errors: { count: 2, messages: ["deadlock detected"] } }), P99_50);
    assert.deepEqual(
      v.failures.map((x) => x.condition),
      ["errors"],
    );
    assert.match(v.failures[0].message, /2 operations failed: deadlock detected/);
  });

  test("a starved runner's step is not charged to the target: marked starved, saying why", () => {
    // Every condition holds: a busy runner does not matter when the step is sustained.
    assert.equal(judgeStep(facts({ client: load(0.97, 0.5) }), P99_50).sustained, true);
    // Short of CPU (nearly a core), or waiting to run (other processes), explains any failure but errors.
    const short = { achievedRate: 900, readRate: 900 };
    const busy = judgeStep(facts({ ...short, client: load(0.97, 0.5) }), P99_50);
    assert.equal(busy.sustained, false);
    assert.match(busy.starved ?? "", /the runner used 97% of a core/);
    assert.match(verdictText(busy), /^STARVED, run again \(not charged to the target\): .*; it measured achieved rate: /);
    // Its main thread ran 10% and waited to run 85% of the window: never idle, never waiting on the target.
    assert.match(judgeStep(facts({ ...short, client: load(0.3, 0.5, 0.85) }), P99_50).starved ?? "", /ran 10% and waited to run .* 85% of the window/);
    // Waiting to run half the time on a loaded host, and idle 40%: it waited on the target, which set the pace.
    assert.equal(judgeStep(facts({ ...short, client: load(0.3, 0.5, 0.5) }), P99_50).starved, undefined);
    assert.equal(judgeStep(facts({ ...short, client: load(0.3, 0.5, null) }), P99_50).starved, undefined, "unknown run-queue wait: charged");
    // The one client rule (lib/measurement/runner-load.ts), as the run's verdict applies it: it waited 300 ms/s
    // for a CPU and its loop was delayed 12 ms, six times the operation's own 2 ms: starved, whatever failed. Starved
    // is not the limit: the words are the delay in the step's latencies, never "the runner was the limit".
    const starved = judgeStep(facts({ ...short, client: load(0.3, 12, 0.3) }), P99_50);
    assert.match(
      starved.starved ?? "",
      /^these latencies include up to 12\.0 ms of the runner's own delay: the runner was starved of CPU \(it waited 300 ms\/s for a CPU, its event-loop delay \(12 ms\) reached 6× the operation's own 2 ms\)$/,
    );
    // The same wait with a loop delayed less than the operation's own time: charged to the target.
    assert.equal(judgeStep(facts({ ...short, client: load(0.3, 1.5, 0.3) }), P99_50).starved, undefined);
    const erred = judgeStep(facts({ errors: { count: 1, messages: ["boom"] }, client: load(0.97, 0.5) }), P99_50);
    assert.equal(erred.starved, undefined, "failed operations are the target's, however busy the runner");
  });

  test("a loop stall explains a latency failure only when the latency less the stall meets the goal", () => {
    // A 440 ms stall on a 100 ms goal: the p99 of 460 ms less the stall is 20 ms. The stall is never compared
    // with the 460 ms p99 it inflated.
    const stalled = judgeStep(facts({ latency: { name: "e2e", label: "end-to-end", stats: lat(460) }, client: load(0.2, 440) }), goal("p99<100ms"));
    assert.equal(stalled.sustained, false);
    assert.match(stalled.starved ?? "", /event loop stalled 440 ms .*: that stall alone can explain latency goal failing/);
    // The same stall beside a p99 of 900 ms: 460 ms is left over the goal; the target's.
    const slow = judgeStep(facts({ latency: { name: "e2e", label: "end-to-end", stats: lat(900) }, client: load(0.2, 440) }), goal("p99<100ms"));
    assert.equal(slow.starved, undefined);
    // A stall shorter than the operation's own service time is noise, not starvation.
    const tiny = judgeStep(facts({ latency: { name: "e2e", label: "end-to-end", stats: lat(51) }, client: { ...load(0.2, 1.5), serviceMs: 3 } }), P99_50);
    assert.equal(tiny.starved, undefined);
    // A stall does not explain a rate shortfall.
    assert.equal(judgeStep(facts({ achievedRate: 900, readRate: 900, client: load(0.2, 440) }), P99_50).starved, undefined);
    // Unrecorded: said, not silently passed.
    const unmeasured = judgeStep(facts({ client: null }), P99_50);
    assert.equal(unmeasured.sustained, true);
    assert.equal(unmeasured.unchecked[0].condition, "client");
  });

  test("schedule: paced operations falling behind their timetable fail the step, though their count kept up", () => {
    // From-schedule median latency growing 100 ms a second over 10 s: 1 s behind at 1,000/s is 1,000 items due
    // and not started, above the 100 allowed.
    const falling = Array.from({ length: 10 }, (_, i) => ({ t: 5 + i, lagMs: 5 + 100 * i }));
    const v = judgeStep(facts({ scheduleLag: falling }), P99_50);
    assert.deepEqual(
      v.failures.map((x) => x.condition),
      ["schedule"],
    );
    assert.match(
      v.failures[0].message,
      /fell behind their timetable by 1,000 ms over the 10 s window \(about 1,000 items due and not started; at most 100 allowed\)/,
    );
    // Flat, noisy lag: kept to the timetable.
    const flat = Array.from({ length: 10 }, (_, i) => ({ t: 5 + i, lagMs: i % 2 ? 30 : 5 }));
    assert.deepEqual(failed(facts({ scheduleLag: flat })), []);
  });

  test("a search never charges a starved step: its ceiling is the target's, above the rates the runner starved", async () => {
    // The runner is starved once at 1,600 msg/s (a CPU hog beside it), then measures normally; the target holds 2,000.
    let hogged = false;
    const r = await searchCeiling(
      async (rate) => {
        const hog = rate === 1600 && !hogged;
        if (hog) hogged = true;
        const achieved = rate <= 2000 && !hog ? rate : Math.min(rate, 1500);
        const v = judgeStep(facts({ targetRate: rate, achievedRate: achieved, readRate: achieved, client: load(hog ? 0.95 : 0.4, 0.5) }), P99_50);
        return { rate, sustained: v.sustained, starved: !!v.starved, verdict: v };
      },
      { ...SEARCH_DEFAULTS, startRate: 100, maxRate: 100_000, confirm: false },
    );
    assert.ok(r.ceiling! >= 1600 && r.ceiling! <= 2000 && r.bracket.high! > 2000, JSON.stringify(r.bracket));
    assert.deepEqual(
      r.steps.filter((s) => s.rate === 1600).map((s) => s.starved),
      [true, false],
    );
  });

  test("several failed conditions are all reported", () => {
    const v = judgeStep(facts({ achievedRate: 500, readRate: 300, latency: { name: "e2e", label: "end-to-end", stats: lat(900) } }), P99_50);
    assert.deepEqual(
      v.failures.map((x) => x.condition),
      ["rate", "readers", "latency"],
    );
    assert.match(verdictText(v), /^NOT sustained: achieved rate: .*; readers keep up: .*; latency goal: end-to-end p99 900 ms/);
  });
});

describe("latency goal", () => {
  test("parses one or several bounds in ms, s or us, and writes them back", () => {
    assert.deepEqual(goal("p99<50ms"), [{ percentile: "p99", limitMs: 50, inclusive: false }]);
    assert.deepEqual(goal(" P999 <= 0.2s , p50<500us "), [
      { percentile: "p999", limitMs: 200, inclusive: true },
      { percentile: "p50", limitMs: 0.5, inclusive: false },
    ]);
    assert.equal(sloText(goal("p999<=0.2s,p50<500us,max<2s")), "p999<=200ms,p50<500us,max<2s");
  });

  test("a bad goal names what is wrong", () => {
    const msg = (t: unknown) => {
      const r = parseSlo(t);
      assert.equal(r.ok, false, String(t));
      return (r as { message: string }).message;
    };
    assert.match(msg(""), /the latency goal is empty/);
    assert.match(msg("p98<50ms"), /unknown percentile "p98"; use one of p50, p90, p95, p99, p999, max/);
    assert.match(msg("p99<50"), /the limit 50 needs a unit \(ms, s or us\), e\.g\. p99<50ms/);
    assert.match(msg("p99<50min"), /unknown unit "min"/);
    assert.match(msg("p99>50ms"), /"p99>50ms" is not a latency goal/);
    assert.match(msg("p99<0ms"), /must be above 0/);
    assert.match(msg("p99<50ms,p99<80ms"), /bounds p99 twice/);
    assert.match(msg(50), /must be text/);
  });
});
