// DBOS's published figures: each attached to the workload that reproduces it, its config valid for that
// workload, its rates named by operations the workload declares, with the hardware, bottleneck and caveats.
import assert from "node:assert/strict";
import { test } from "node:test";
import { workloadDefinition } from "../index";
import { DBOS_QUEUED_MANY_QUEUES_30K, DBOS_QUEUED_ONE_QUEUE_12K } from "./published";

test("inserts and workflows carry their published figure, reproducible by their own config", () => {
  for (const [kind, id, rate] of [
    ["inserts", "dbos-inserts-144k", 144_000],
    ["workflows", "dbos-workflows-43k", 43_000],
  ] as const) {
    const def = workloadDefinition(kind)!;
    const p = def.published?.find((x) => x.id === id);
    assert.ok(p, `${kind} has ${id}`);
    assert.equal(p.study, "dbos");
    assert.equal(p.config.kind, kind);
    assert.ok(def.params.safeParse(p.config).success, `${id}'s config parses as ${kind}`);
    const names = def.metrics.operations.map((o) => o.name);
    for (const [name, value] of Object.entries(p.rates ?? {})) {
      assert.ok(names.includes(name), `${id} rate "${name}" is an operation of ${kind}`);
      assert.equal(value, rate);
    }
    assert.match(p.server, /db\.m7i\.24xlarge \(96 vCPU, 384 GB\), io2 storage with 120,000 provisioned IOPS/);
    assert.match(p.server, /c7i\.48xlarge/);
    assert.match(p.bottleneck ?? "", /WAL/);
    assert.ok(p.caveats.some((c) => /No latency was published/.test(c.text)));
    assert.ok(p.caveats.some((c) => /which flags/.test(c.text)));
    // A preset reproduces it.
    assert.ok(def.presets.some((pr) => pr.referenceId === id));
  }
});

test("the queued figures wait for queued-workflows, with what the study said of them", () => {
  assert.equal(DBOS_QUEUED_ONE_QUEUE_12K.rates?.workflow, 12_100);
  assert.equal(DBOS_QUEUED_MANY_QUEUES_30K.rates?.workflow, 30_600);
  assert.match(DBOS_QUEUED_ONE_QUEUE_12K.bottleneck ?? "", /head of the queue/);
  assert.ok(DBOS_QUEUED_MANY_QUEUES_30K.caveats.some((c) => /only as a chart/.test(c.text)));
});
