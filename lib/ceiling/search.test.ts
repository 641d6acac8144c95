// The search plan against a simulated server: a step at rate r is sustained exactly when r is at most the
// server's capacity, so every path of the plan is deterministic and its steps can be checked one by one.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { MAX_CONFIRMATIONS, nextStep, relativeWidth, SEARCH_DEFAULTS, SearchCancelled, searchCeiling, type SearchOptions, type Tried } from "./search";

const server = (capacity: number) => async (rate: number) => ({ rate, sustained: rate <= capacity });
/** The plan alone, without confirmation runs (tested below). */
const opts = (o: Partial<SearchOptions>): SearchOptions => ({ ...SEARCH_DEFAULTS, startRate: 100, maxRate: 1_000_000, confirm: false, ...o });
const rates = (steps: Tried[]) => steps.map((s) => s.rate);

describe("ceiling search", () => {
  test("a clean ceiling: grows ×2 while sustained, then bisects until the bracket is within 10%", async () => {
    const r = await searchCeiling(server(1234), opts({}));
    assert.deepEqual(rates(r.steps), [100, 200, 400, 800, 1600, 1200, 1400, 1300]);
    assert.equal(r.stop, "converged");
    assert.equal(r.ceiling, 1200);
    assert.deepEqual(r.bracket, { low: 1200, high: 1300 });
    assert.ok(relativeWidth(r.bracket)! <= 0.1);
    assert.equal(r.failedAbove?.rate, 1300, "the step that says why the rate above is not sustained");
  });

  test("a tighter precision narrows further, and the ceiling never exceeds the capacity", async () => {
    for (const capacity of [7, 95, 1234, 55_555]) {
      const r = await searchCeiling(server(capacity), opts({ precision: 0.01, maxSteps: 40 }));
      assert.equal(r.stop, "converged", `capacity ${capacity}`);
      assert.ok(r.ceiling! <= capacity && r.bracket.high! > capacity, `capacity ${capacity}: bracket ${JSON.stringify(r.bracket)}`);
      assert.ok(relativeWidth(r.bracket)! <= 0.01 || r.bracket.high! - r.ceiling! <= 1, `capacity ${capacity}`);
    }
  });

  test("a ceiling below the first step: descends until a step is sustained, then bisects", async () => {
    const r = await searchCeiling(server(300), opts({ startRate: 1000 }));
    assert.deepEqual(rates(r.steps), [1000, 500, 250, 375, 313, 282, 298]);
    assert.equal(r.stop, "converged");
    assert.equal(r.ceiling, 298);
    assert.deepEqual(r.bracket, { low: 298, high: 313 });
  });

  test("--max-rate reached while still sustained: the ceiling is at least the maximum, with an open bracket", async () => {
    const r = await searchCeiling(server(10_000), opts({ maxRate: 1000 }));
    assert.deepEqual(rates(r.steps), [100, 200, 400, 800, 1000]);
    assert.equal(r.stop, "max-rate");
    assert.equal(r.ceiling, 1000);
    assert.deepEqual(r.bracket, { low: 1000, high: null });
    assert.equal(r.failedAbove, undefined);
  });

  test("nothing sustained down to 1 msg/s", async () => {
    const r = await searchCeiling(server(0), opts({ startRate: 8 }));
    assert.deepEqual(rates(r.steps), [8, 4, 2, 1]);
    assert.equal(r.stop, "none-sustained");
    assert.equal(r.ceiling, null);
  });

  test("the step budget ends a search that has not converged, keeping its bracket", async () => {
    const r = await searchCeiling(server(1234), opts({ maxSteps: 6 }));
    assert.equal(r.steps.length, 6);
    assert.equal(r.stop, "max-steps");
    assert.deepEqual(r.bracket, { low: 1200, high: 1600 });
  });

  test("cancel keeps the steps done, and their bracket", async () => {
    const ac = new AbortController();
    const sim = server(1234);
    const r = await searchCeiling(
      async (rate, index) => {
        if (index === 5) {
          ac.abort();
          throw new SearchCancelled();
        }
        return sim(rate);
      },
      opts({}),
      ac.signal,
    );
    assert.equal(r.stop, "cancelled");
    assert.deepEqual(rates(r.steps), [100, 200, 400, 800, 1600]);
    assert.equal(r.ceiling, 800);
    assert.deepEqual(r.bracket, { low: 800, high: 1600 });
  });

  test("a step whose run fails ends the search as failed, with its error and the steps before it", async () => {
    const sim = server(1234);
    const r = await searchCeiling(async (rate, index) => {
      if (index === 2) throw new Error("the target went away");
      return sim(rate);
    }, opts({}));
    assert.equal(r.stop, "failed");
    assert.equal(r.error, "the target went away");
    assert.deepEqual(rates(r.steps), [100, 200]);
  });

  test("growth never passes the maximum and rates are whole messages per second", () => {
    assert.deepEqual(nextStep([{ rate: 700, sustained: true }], opts({ maxRate: 1000 })), { rate: 1000 });
    assert.deepEqual(nextStep([], opts({ startRate: 0.3 })), { rate: 1 });
    assert.deepEqual(
      nextStep(
        [
          { rate: 3, sustained: true },
          { rate: 4, sustained: false },
        ],
        opts({}),
      ),
      { stop: "converged" },
    );
  });

  test("the rate found is confirmed by one more run before the search ends", async () => {
    const seen: boolean[] = [];
    const r = await searchCeiling<Tried>(
      async (rate, _i, confirmation) => {
        seen.push(confirmation);
        return { rate, sustained: rate <= 1234 };
      },
      opts({ confirm: true }),
    );
    assert.deepEqual(rates(r.steps), [100, 200, 400, 800, 1600, 1200, 1400, 1300, 1200]);
    assert.deepEqual(seen, [false, false, false, false, false, false, false, false, true]);
    assert.equal(r.stop, "converged");
    assert.equal(r.ceiling, 1200);
    assert.equal(r.confirmation?.rate, 1200);
    assert.equal(r.confirmation?.confirmation, true);
  });

  test("a failed confirmation is the bracket's new high end: the search goes on below it and confirms again", async () => {
    // Short steps pass up to 1234; a longer run only up to 1000.
    const r = await searchCeiling<Tried>(
      async (rate, _i, confirmation) => ({ rate, sustained: rate <= (confirmation ? 1000 : 1234) }),
      opts({ confirm: true }),
    );
    const confirmations = r.steps.filter((s) => s.confirmation);
    assert.deepEqual(
      confirmations.map((s) => [s.rate, s.sustained]),
      [
        [1200, false],
        [1100, false],
        [1000, true],
      ],
    );
    assert.equal(r.ceiling, 1000);
    assert.deepEqual(r.bracket, { low: 1000, high: 1100 });
    assert.equal(r.confirmation?.rate, 1000);
  });

  test("every confirmation failing reports the bracket unconfirmed", async () => {
    const r = await searchCeiling<Tried>(async (rate, _i, confirmation) => ({ rate, sustained: !confirmation && rate <= 1234 }), opts({ confirm: true }));
    assert.equal(r.stop, "unconfirmed");
    assert.equal(r.confirmation, undefined);
    assert.equal(r.steps.filter((s) => s.confirmation).length, MAX_CONFIRMATIONS);
  });

  test("a starved step is run again at the same rate, never charged to the target", async () => {
    let starveNext = 2;
    const r = await searchCeiling(async (rate) => {
      // The step at 400 is starved twice, then measured.
      if (rate === 400 && starveNext-- > 0) return { rate, sustained: false, starved: true };
      return { rate, sustained: rate <= 1234 };
    }, opts({}));
    assert.deepEqual(rates(r.steps), [100, 200, 400, 400, 400, 800, 1600, 1200, 1400, 1300]);
    assert.equal(r.ceiling, 1200);
    assert.equal(r.stop, "converged");
  });

  test("a rate starved every time stops the search, saying so, with the rate sustained so far", async () => {
    const r = await searchCeiling(async (rate) => (rate === 400 ? { rate, sustained: false, starved: true } : { rate, sustained: true }), opts({}));
    assert.deepEqual(rates(r.steps), [100, 200, 400, 400, 400]);
    assert.equal(r.stop, "starved");
    assert.equal(r.ceiling, 200);
    assert.deepEqual(r.bracket, { low: 200, high: null });
  });

  test("with confirmation on, a rate starved every time ends with the rate below it confirmed: a confirmed lower bound", async () => {
    const r = await searchCeiling(
      async (rate): Promise<Tried> => (rate === 400 ? { rate, sustained: false, starved: true } : { rate, sustained: true }),
      opts({ confirm: true }),
    );
    assert.deepEqual(
      r.steps.map((s) => `${s.confirmation ? "c" : ""}${s.rate}`),
      ["100", "200", "400", "400", "400", "c200"],
    );
    assert.equal(r.stop, "starved");
    assert.equal(r.ceiling, 200);
    assert.equal(r.confirmation?.rate, 200);
  });

  test("a confirmation starved every time ends the search unconfirmed, never in a loop", async () => {
    const r = await searchCeiling(
      async (rate, _i, confirmation): Promise<Tried> => (confirmation ? { rate, sustained: false, starved: true } : { rate, sustained: rate <= 1234 }),
      opts({ confirm: true, maxRate: 400 }),
    );
    assert.equal(r.stop, "starved");
    assert.equal(r.confirmation, undefined);
    assert.equal(r.steps.filter((s) => s.confirmation).length, 3);
  });

  test("a latency miss the server's telemetry leaves unexplained is measured once more, and the later measurement decides", async () => {
    let first = true;
    const r = await searchCeiling(async (rate): Promise<Tried> => {
      // 800 misses once on noise (the server had headroom), then holds.
      if (rate === 800 && first) {
        first = false;
        return { rate, sustained: false, unexplained: true };
      }
      return { rate, sustained: rate <= 1234 };
    }, opts({}));
    assert.deepEqual(rates(r.steps), [100, 200, 400, 800, 800, 1600, 1200, 1400, 1300]);
    assert.equal(r.steps[4].remeasure, true);
    assert.equal(r.ceiling, 1200);
    assert.deepEqual(r.bracket, { low: 1200, high: 1300 });
  });

  test("a miss below a rate already sustained is measured once more; a miss the telemetry explains counts at once", async () => {
    const missAt = new Map([[1200, 1]]);
    const r = await searchCeiling(async (rate): Promise<Tried> => {
      const n = missAt.get(rate) ?? 0;
      if (n > 0) {
        missAt.set(rate, n - 1);
        return { rate, sustained: false };
      }
      return { rate, sustained: rate <= 1234 };
    }, opts({}));
    // 1600 fails (explained: counted), 1200 misses once (explained, so counted: the bracket moves to 800-1200) ...
    assert.deepEqual(rates(r.steps).slice(0, 6), [100, 200, 400, 800, 1600, 1200]);
    assert.equal(r.steps[5].remeasure, undefined, "a miss above every sustained rate, explained, is not measured again");
    // ... and when a lower rate misses after a higher one held, it is measured again before it counts.
    const steps: Tried[] = [
      { rate: 100, sustained: true },
      { rate: 800, sustained: true },
      { rate: 400, sustained: false },
    ];
    assert.deepEqual(nextStep(steps, opts({})), { rate: 400, remeasure: true });
    assert.ok(!("remeasure" in nextStep([...steps, { rate: 400, sustained: false, remeasure: true }], opts({}))), "measured again once, not twice");
  });
});
