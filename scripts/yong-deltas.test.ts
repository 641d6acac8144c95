// bench:yong's choice of published pair: each workload's first, the article's normal run, and the same pair the
// A/B action finds for that config (lib/ab.ts), so the script's table shows what `--variant both` would.
import assert from "node:assert/strict";
import { test } from "node:test";
import { publishedPairFor } from "../lib/ab";
import { WorkloadConfig } from "../lib/workloads";
import { publishedPair, YONG_KINDS } from "./yong-deltas";

test("each workload's first published baseline/modded pair is the article's normal run, as the A/B action finds it", () => {
  const ids = YONG_KINDS.map((k) => {
    const pair = publishedPair(k);
    const config = WorkloadConfig.parse({ ...pair.baseline.config, durationSeconds: 10, warmupSeconds: 2 }) as unknown as Record<string, unknown> & {
      kind: string;
    };
    assert.deepEqual(publishedPairFor(config), pair, k);
    return [pair.baseline.id, pair.modded.id];
  });
  assert.deepEqual(ids, [
    ["yong-cache-200vu-baseline", "yong-cache-200vu-modded"],
    ["yong-jobqueue-baseline", "yong-jobqueue-modded"],
    ["yong-search-500vu-baseline", "yong-search-500vu-modded"],
    ["yong-notify-200vu-baseline", "yong-notify-200vu-modded"],
    ["yong-mixed-200vu-baseline", "yong-mixed-200vu-modded"],
  ]);
  assert.throws(() => publishedPair("pubsub"), /the pubsub workload has no published baseline\/modded pair/);
  assert.throws(() => publishedPair("nope"), /the nope workload is not registered/);
});
