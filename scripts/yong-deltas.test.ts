// bench:yong's tables: the published pair each workload is compared with, and deltas as the article's.
import assert from "node:assert/strict";
import { test } from "node:test";
import { delta, pairTable, publishedPair, theirs } from "./yong-deltas";

test("each workload's first published baseline/modded pair is the article's normal run", () => {
  const s = publishedPair("search");
  assert.deepEqual([s.baseline.id, s.modded.id], ["yong-search-500vu-baseline", "yong-search-500vu-modded"]);
  const n = publishedPair("notify");
  assert.deepEqual([n.baseline.id, n.modded.id], ["yong-notify-200vu-baseline", "yong-notify-200vu-modded"]);
  assert.throws(() => publishedPair("pubsub"), /the pubsub workload has no published baseline\/modded pair/);
  assert.throws(() => publishedPair("nope"), /the nope workload is not registered/);
});

test("deltas are baseline → modded in percent, as the article presented them", () => {
  assert.equal(delta(6.04, 4.8), "-20.5 %");
  assert.equal(delta(561, 675), "+20.3 %");
  assert.equal(delta(undefined, 1), "–");
  const { baseline, modded } = publishedPair("notify");
  const table = pairTable({ p50: 2, p95: 8, avg: 3, rps: 100 }, { p50: 1, p95: 4, avg: 3, rps: 110 }, theirs(baseline), theirs(modded));
  const lines = table.split("\n");
  assert.match(lines[0], /ours baseline +ours modded +ours Δ +article baseline +article modded +article Δ/);
  assert.match(lines[2], /^p95 \(ms\) +8\.00 +4\.00 +-50\.0 % +6\.04 +4\.80 +-20\.5 %$/);
  assert.match(lines[4], /^requests\/s +100 +110 +\+10\.0 % +1,116 +1,131 +\+1\.3 %$/);
});
