import assert from "node:assert/strict";
import { test } from "node:test";
import { WorkloadConfig } from "./config";
import { owned, owns, partPacing, partsProblem } from "./parts";

test("every index is owned by exactly one part, by its global index", () => {
  for (const n of [0, 1, 5, 8, 30])
    for (const of of [1, 2, 3, 4, 7]) {
      const all = Array.from({ length: of }, (_, index) => owned(n, { index, of })).flat();
      assert.deepEqual(
        [...all].sort((a, b) => a - b),
        Array.from({ length: n }, (_, i) => i),
        `${n} over ${of}`,
      );
      for (let i = 0; i < n; i++) assert.equal(Array.from({ length: of }, (_, index) => owns(i, { index, of })).filter(Boolean).length, 1);
    }
  assert.deepEqual(owned(5, { index: 1, of: 2 }), [1, 3]);
  assert.deepEqual(owned(3), [0, 1, 2]);
});

test("one process: the whole pacing and no problem", () => {
  const c = WorkloadConfig.parse({ kind: "queue", throttleWritesPerSec: 300 });
  assert.equal(c.processes, 1);
  assert.deepEqual(partPacing(c), partPacing(c, { index: 0, of: 1 }));
  assert.equal(partPacing(c).targetPerSecond, 300);
  assert.equal(partsProblem(c), null);
});

test("the processes field: a whole number from 1 to 64, named in its message", () => {
  const r = WorkloadConfig.safeParse({ kind: "queue", processes: 0 });
  assert.equal(r.success, false);
  assert.match(JSON.stringify(r.error?.issues), /Runner processes must be at least 1/);
});
