// exercise(): a workload's fields and presets through every schema that parses a config: the registry's
// (WorkloadConfig), the New run form's (components/run-form/fields.ts), the API's run-create checks
// (lib/targets/launch.ts checkLaunch: the schema, the split, the memory budget) and the CLI's flags
// (runner/cli-args.ts), which must read a preset's reproducing command (lib/runs/cli-command.ts) back to it.
import assert from "node:assert/strict";
import { toFormValues, toInput } from "../../components/run-form/fields";
import { readEnv } from "../../lib/env";
import { toCliCommand } from "../../lib/runs/cli-command";
import { parseConfig, WorkloadConfig } from "../../lib/workloads/config";
import { memoryProblem } from "../../lib/workloads/memory";
import { partsProblem } from "../../lib/workloads/parts";
import { parseArgs } from "../../runner/harness";
import type { FieldDef, WorkloadDefinition } from "../types";

/** Every preset parses, and reads back to the same config through the form, the API's checks and the CLI. */
export function presetsParse(def: WorkloadDefinition) {
  assert.ok(
    def.presets.some((p) => p.id === def.defaultPresetId),
    `${def.kind}: its default preset ${def.defaultPresetId} is one of its presets`,
  );
  for (const preset of def.presets) {
    const where = `${def.kind}, preset ${preset.id}`;
    const config = WorkloadConfig.parse(preset.config);
    assert.equal(config.kind, def.kind, `${where}: its kind`);
    // The form: its values read back to the same config.
    const form = toFormValues(config);
    assert.deepEqual(parseConfig(toInput(def.kind, form.values)), { ok: true, config }, `${where}: through the form`);
    // The API: the schema, the split over its processes and the runner's memory budget accept it.
    assert.deepEqual(parseConfig(JSON.parse(JSON.stringify(preset.config))), { ok: true, config }, `${where}: through the API's schema`);
    assert.equal(partsProblem(config), null, `${where}: the API refuses its split`);
    assert.equal(memoryProblem(config, readEnv().RUNNER_MEMORY_BUDGET_MB)?.message ?? null, null, `${where}: over the runner's memory budget`);
    // The CLI: the reproducing command parses back to the same config.
    const cmd = toCliCommand(config);
    const argv = cmd.replace(/^npm run bench -- /, "").split(" ");
    const back = parseArgs(argv);
    assert.equal(back.kind, "run", `${where}: ${cmd} → ${back.kind === "error" ? back.message : back.kind}`);
    assert.deepEqual(back.kind === "run" && back.options.config, config, `${where}: ${cmd} reads back to another config`);
  }
}

/** A field's input in the form's and the API's terms, set on the default preset's config. */
const withField = (def: WorkloadDefinition, f: FieldDef, value: unknown) => {
  const preset = def.presets.find((p) => p.id === def.defaultPresetId)!;
  return { ...(preset.config as object), kind: def.kind, [f.name]: value };
};

/** The schema's error on field `name` for `input`, if any (other fields' cross-checks may complain too). */
function errorOn(input: unknown, name: string): string | undefined {
  const r = parseConfig(input);
  return r.ok ? undefined : r.errors[name];
}

/** Each field's declared bounds and options are the schema's: one beyond its min or max is refused under the
 *  field's own name, and the bound itself is not refused for the same reason; each option passes and another value is refused. */
export function fieldsAgree(def: WorkloadDefinition) {
  for (const f of def.fields.filter((x) => !x.derivedFrom)) {
    const where = `${def.kind}.${f.name}`;
    if (f.control === "int") {
      for (const [ok, bad] of [
        [f.min, f.min === undefined ? undefined : f.min - 1],
        [f.max, f.max === undefined ? undefined : f.max + 1],
      ]) {
        if (ok === undefined || bad === undefined) continue;
        const beyond = errorOn(withField(def, f, bad), f.name);
        assert.ok(beyond, `${where}: ${bad}, beyond its declared bound ${ok}, is accepted`);
        // The bound itself passes the bound's check (a cross-field check of the preset's other fields may still
        // refuse it: search's 0 virtual users, which only an open loop takes).
        const at = errorOn(withField(def, f, ok), f.name);
        assert.notEqual(at, beyond, `${where}: its declared bound ${ok} is refused as ${bad} is: ${at}`);
      }
    }
    if (f.control === "select") {
      assert.ok(f.options?.length, `${where}: a select without options`);
      for (const o of f.options ?? []) assert.equal(errorOn(withField(def, f, o.value), f.name), undefined, `${where}: its option ${o.value} is refused`);
      assert.ok(errorOn(withField(def, f, "no-such-option"), f.name), `${where}: a value outside its options is accepted`);
    }
    if (f.default !== undefined) {
      const { [f.name]: _left, ...rest } = withField(def, f, undefined) as Record<string, unknown>;
      const parsed = parseConfig(rest);
      if (parsed.ok) assert.deepEqual((parsed.config as Record<string, unknown>)[f.name], f.default, `${where}: its declared default`);
    }
  }
}
