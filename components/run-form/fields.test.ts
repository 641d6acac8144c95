import assert from "node:assert/strict";
import { test } from "node:test";
import {
  parseConfig,
  type Preset,
  PRESETS,
  presetById,
  SHORT_WINDOW_SECONDS,
  workloadDefinitions,
  WorkloadConfig,
  type WorkloadKind,
} from "@/lib/workloads/config";
import { partsProblem } from "@/lib/workloads/parts";
import { checkFormInput, fieldsOf, isLongPreset, pickWorkload, presetValues, toFormValues, toInput, workloadPickerGroups } from "./fields";

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

test("picking a workload fills the fields with the preset the form names: for every workload, nothing to call edited", () => {
  for (const d of workloadDefinitions()) {
    const picked = pickWorkload(d.kind as WorkloadKind);
    assert.equal(picked.kind, d.kind);
    const preset = presetById(picked.presetId);
    assert.ok(preset, `${d.kind}: names preset "${picked.presetId}", which exists`);
    assert.equal(WorkloadConfig.parse(preset.config).kind, d.kind, `${d.kind}: its own preset`);
    assert.equal(picked.presetId, d.defaultPresetId, `${d.kind}: the workload's default preset`);
    // What the fields hold is exactly the preset's config (a long one with the short window the form offers first).
    const config = WorkloadConfig.parse(preset.config);
    const fromFields = parseConfig(toInput(picked.kind, picked.values));
    assert.ok(fromFields.ok, `${d.kind}: ${JSON.stringify(fromFields)}`);
    const window = isLongPreset(preset) ? { durationSeconds: SHORT_WINDOW_SECONDS } : {};
    assert.deepEqual(fromFields.config, { ...config, ...window }, `${d.kind}: the fields hold preset ${preset.id}`);
  }
});

test("every preset's values, put in the form, read back as that preset and no other of its workload", () => {
  for (const d of workloadDefinitions()) {
    assert.ok(
      d.presets.some((p) => p.id === d.defaultPresetId),
      `${d.kind}: default preset ${d.defaultPresetId} is one of its presets`,
    );
    for (const p of d.presets) {
      const f = presetValues(p as Preset);
      const others = d.presets.filter((o) => o.id !== p.id && JSON.stringify(presetValues(o as Preset).values) === JSON.stringify(f.values));
      assert.deepEqual(
        others.map((o) => o.id),
        [],
        `${p.id}: another preset fills the same values`,
      );
    }
  }
});

test("the workload picker groups every workload by its study, each with a one-line purpose", () => {
  const groups = workloadPickerGroups();
  assert.deepEqual(
    groups.map((g) => [g.study, g.workloads.map((w) => w.kind)]),
    [
      ["kozlovski", ["pubsub", "queue"]],
      ["yong", ["cache", "jobqueue", "search", "notify", "mixed"]],
      ["dbos", ["inserts", "workflows", "queued-workflows"]],
      ["libraries", ["graphile-worker", "pg-boss"]],
    ],
  );
  for (const d of workloadDefinitions()) {
    assert.ok(d.purpose, `${d.kind} has a purpose`);
    assert.ok(!d.purpose.includes("\n") && d.purpose.length <= 95, `${d.kind}: one short line (${d.purpose.length} characters)`);
  }
});

test("the form refuses runner processes its workload cannot split, under the processes field, in the API's words", () => {
  const f = toFormValues(WorkloadConfig.parse({ kind: "pubsub", writers: 1, partitions: 1 }));
  const ok = checkFormInput(toInput("pubsub", f.values));
  assert.equal(ok.ok && ok.config.processes, 1);
  const two = toInput("pubsub", { ...f.values, processes: "2" });
  const want = partsProblem(WorkloadConfig.parse(two));
  assert.ok(want, "one partition cannot be split over 2 processes");
  assert.deepEqual(checkFormInput(two), { ok: false, errors: { processes: want } });
  // A bad number is the schema's message, as before.
  assert.deepEqual(checkFormInput(toInput("pubsub", { ...f.values, processes: "0" })), {
    ok: false,
    errors: { processes: "Runner processes must be at least 1" },
  });
});
