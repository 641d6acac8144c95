import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConfig, PRESETS, WorkloadConfig } from "@/lib/workloads";
import { toFormValues, toInput, validate } from "./fields";

test("every preset survives the form: shown as text, read back to the same config", () => {
  for (const p of PRESETS) {
    const config = WorkloadConfig.parse(p.config);
    const f = toFormValues(config);
    assert.deepEqual(parseConfig(toInput(f.kind, f.values, f.tuneTableVacuum)), { ok: true, config }, p.id);
  }
});

test("text that is not a number reaches the schema as text, so its message names the field", () => {
  const r = validate(toInput("queue", { writers: "four", readers: "" }, false));
  assert.deepEqual(r, { ok: false, errors: { writers: "writers must be a number" } });
});

test("an empty field takes the schema's default", () => {
  const r = validate(toInput("pubsub", { writers: "", partitions: "3", readers: "" }, false));
  assert.ok(r.ok);
  assert.equal(r.config.writers, 4);
  assert.equal(r.config.readers, 3);
});

test("field errors and cross-field errors show together, with the schema's words", () => {
  const r = validate({ kind: "pubsub", writers: 0, partitions: 2, readers: 3 });
  assert.ok(!r.ok);
  assert.equal(r.errors.writers, "writers must be at least 1");
  assert.match(r.errors.readers, /^readers \(per consumer group\) must equal partitions/);
  // What the API says for the same input is a subset of the same messages.
  const api = parseConfig({ kind: "pubsub", writers: 0, partitions: 2, readers: 3 });
  assert.ok(!api.ok);
  for (const [k, v] of Object.entries(api.errors)) assert.equal(r.errors[k], v);
});
