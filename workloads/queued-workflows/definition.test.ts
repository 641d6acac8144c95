// What queued-workflows declares: its published figures (reproducible by its own config, named by its own
// operations, with the hardware and caveats), its presets, and the sweep's list of queue counts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connectionsNeeded, parseConfig } from "../../lib/workloads/config";
import { parseQueueCounts, queuedWorkflows } from "./definition";

test("the published figures: completion rates at the study's client counts, with hardware, bottleneck and caveats", () => {
  const published = queuedWorkflows.published ?? [];
  assert.deepEqual(
    published.map((p) => [p.id, p.rates]),
    [
      ["dbos-queued-one-queue-12.1k", { read: 12_100 }],
      ["dbos-queued-many-queues-30.6k", { read: 30_600 }],
    ],
  );
  const operations = queuedWorkflows.metrics.operations.map((o) => o.name);
  for (const p of published) {
    const parsed = queuedWorkflows.params.safeParse(p.config);
    assert.ok(parsed.success, `${p.id}'s config parses`);
    assert.equal(parsed.data.enqueuers, 64);
    assert.equal(parsed.data.workers, 8);
    assert.equal(parsed.data.profile, "2.17");
    for (const name of Object.keys(p.rates ?? {})) assert.ok(operations.includes(name), `${p.id}: "${name}" is an operation`);
    assert.match(p.server, /db\.m7i\.24xlarge \(96 vCPU, 384 GB\)/);
    assert.ok(p.caveats.some((c) => /No latency was published/.test(c.text)));
    assert.ok(p.caveats.some((c) => /which flags/.test(c.text)));
  }
  assert.match(published[0].bottleneck ?? "", /head of the queue/);
  assert.ok(published[1].caveats.some((c) => /only as a chart/.test(c.text)));
  assert.equal(published[1].config.queues, 32);
});

test("every preset parses, and the connections it needs are enqueuers + workers × (poller + executors) + 1", () => {
  for (const p of queuedWorkflows.presets) {
    const r = parseConfig(p.config);
    assert.ok(r.ok, p.id);
    if (r.ok && r.config.kind === "queued-workflows")
      assert.equal(connectionsNeeded(r.config), r.config.enqueuers + r.config.workers * (1 + r.config.executors) + 2, p.id);
  }
});

test("a sweep's queue counts: whole numbers in the field's range, none twice, two to sixteen runs", () => {
  assert.deepEqual(parseQueueCounts("1, 2,4,8"), { ok: true, counts: [1, 2, 4, 8] });
  assert.deepEqual(parseQueueCounts("1,0"), { ok: false, message: '"0" is not a number of queues from 1 to 1024 (a sweep is a list such as 1,2,4,8)' });
  assert.deepEqual(parseQueueCounts("4,2000"), { ok: false, message: '"2000" is not a number of queues from 1 to 1024 (a sweep is a list such as 1,2,4,8)' });
  assert.deepEqual(parseQueueCounts("4"), { ok: false, message: "a sweep needs at least two queue counts, such as 1,2,4,8" });
  assert.deepEqual(parseQueueCounts("4,4"), { ok: false, message: "a queue count is listed twice" });
  assert.deepEqual(parseQueueCounts(Array.from({ length: 17 }, (_, i) => i + 1).join(",")), { ok: false, message: "17 runs; a sweep runs at most 16" });
});
