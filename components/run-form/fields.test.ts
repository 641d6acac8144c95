import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConfig, PRESETS, workloadDefinitions, WorkloadConfig } from "@/lib/workloads/config";
import { fieldsOf, toFormValues, toInput } from "./fields";

test("every preset survives the form: shown as text, read back to the same config", () => {
  for (const p of PRESETS) {
    const config = WorkloadConfig.parse(p.config);
    const f = toFormValues(config);
    assert.deepEqual(parseConfig(toInput(f.kind, f.values)), { ok: true, config }, p.id);
  }
});

test("a blank field is refused beside it, never replaced by the default", () => {
  const r = parseConfig(toInput("queue", { ...toFormValues(WorkloadConfig.parse({ kind: "queue" })).values, writers: "  " }));
  assert.deepEqual(r, { ok: false, errors: { writers: "Writers is required: enter a whole number" } });
});

test("text that is not a decimal number reaches the schema as the text the user sees", () => {
  const values = { ...toFormValues(WorkloadConfig.parse({ kind: "queue" })).values, writers: "abc", readers: "0x10", payloadBytes: "1e3" };
  const r = parseConfig(toInput("queue", values));
  assert.deepEqual(r, {
    ok: false,
    errors: {
      writers: 'Writers must be a whole number, not "abc"',
      readers: 'Readers must be a whole number, not "0x10"',
      payloadBytes: 'Payload must be a whole number, not "1e3"',
    },
  });
  assert.deepEqual(parseConfig(toInput("queue", { ...values, writers: "2.5", readers: " 7 ", payloadBytes: "512" })), {
    ok: false,
    errors: { writers: "Writers must be a whole number" },
  });
});

test("pub/sub readers per group are derived from partitions, not asked", () => {
  const f = fieldsOf("pubsub").find((x) => x.name === "readers")!;
  assert.equal(f.derivedFrom, "partitions");
  assert.equal(f.label, "Readers per group");
  const values = toFormValues(WorkloadConfig.parse({ kind: "pubsub", partitions: 3 })).values;
  assert.equal("readers" in values, false);
  const r = parseConfig(toInput("pubsub", { ...values, partitions: "6" }));
  assert.ok(r.ok);
  assert.equal(r.config.kind === "pubsub" && r.config.readers, 6);
  // A queue's readers are asked (there is no partition to follow).
  assert.equal(fieldsOf("queue").find((x) => x.name === "readers")!.derivedFrom, undefined);
});

test("the form's labels are the schema's: one field table per workload", () => {
  for (const d of workloadDefinitions())
    for (const f of fieldsOf(d.kind).filter((x) => x.control === "int" && !x.derivedFrom)) {
      const r = parseConfig({ kind: d.kind, [f.name]: "abc" });
      assert.deepEqual(r, { ok: false, errors: { [f.name]: `${f.label} must be a whole number, not "abc"` } }, `${d.kind}.${f.name}`);
    }
});

test("a switch is sent as true or false", () => {
  const f = toFormValues(WorkloadConfig.parse({ kind: "queue", tuneTableVacuum: true }));
  assert.equal(f.values.tuneTableVacuum, "true");
  const r = parseConfig(toInput("queue", { ...f.values, tuneTableVacuum: "false" }));
  assert.ok(r.ok && r.config.kind === "queue" && r.config.tuneTableVacuum === false);
});
