// The New run form's knobs: one panel per group of the workload's field table (load, batches, timing), each
// field drawn by its control: a derived value, a switch, a choice, or a text box checked as it is typed.
import type { ReactNode } from "react";
import type { FieldSpec } from "./fields";
import { fieldsOf, GROUP_LABEL, isOptionalChoice } from "./fields";
import { PhaseAdder } from "./PhaseAdder";
import type { FormState } from "./useFormState";

export function FieldSections({ form, runnerCores = null }: { form: FormState; runnerCores?: number | null }) {
  const shown = fieldsOf(form.kind);
  // A section only when the workload has fields in it (DBOS's workloads have no messages or batches).
  const groups = (["load", "batches", "timing"] as const).filter((g) => shown.some((f) => f.group === g));
  return groups.map((g) => (
    <section key={g} className="panel">
      <h2>{GROUP_LABEL[g]}</h2>
      <div className="form-grid">
        {shown
          .filter((f) => f.group === g)
          .map((f) => (
            <Field key={f.name} f={f} form={form} runnerCores={runnerCores} />
          ))}
      </div>
    </section>
  ));
}

function Field({ f, form, runnerCores }: { f: FieldSpec; form: FormState; runnerCores: number | null }) {
  if (f.derivedFrom) return <DerivedField f={f} form={form} />;
  if (f.control === "bool") return <BoolField f={f} form={form} />;
  if (f.control === "select") return <SelectField f={f} form={form} />;
  const extra = f.name === "processes" ? <AutoProcesses form={form} cores={runnerCores} /> : f.name === "phases" ? <PhaseAdder form={form} /> : undefined;
  return <TextField f={f} form={form} extra={extra} />;
}

/** Runner processes' "auto": the cores of the runner that will take the run, filled in as the number (the run
 *  stores the number it used). Without a live runner that recorded its cores there is nothing to fill in. */
function AutoProcesses({ form, cores }: { form: FormState; cores: number | null }) {
  return (
    <button
      type="button"
      className="btn small"
      style={{ alignSelf: "flex-start" }}
      data-testid="processes-auto"
      disabled={cores === null}
      title={cores === null ? "no live runner has said how many cores it has: start `npm run runner` (or npm start)" : `the runner's ${cores} cores`}
      onClick={() => {
        if (cores === null) return;
        form.setField("processes", String(cores));
        form.touch("processes");
      }}
    >
      auto{cores !== null ? ` (${cores} cores)` : ""}
    </button>
  );
}

/** A value the schema derives from other fields (readers in total): shown, never typed. */
function DerivedField({ f, form }: { f: FieldSpec; form: FormState }) {
  const id = `f-${f.name}`;
  const v = form.parsed.ok ? String((form.parsed.config as Record<string, unknown>)[f.name]) : "—";
  return (
    <div className="fieldbox" data-field={f.name}>
      <span className="label" id={`${id}-label`}>
        {f.label}
      </span>
      <output className="derived" aria-labelledby={`${id}-label`} data-testid={`derived-${f.name}`}>
        {v}
      </output>
      <span className="hint">{f.hint}</span>
    </div>
  );
}

function BoolField({ f, form }: { f: FieldSpec; form: FormState }) {
  return (
    <div className="fieldbox" data-field={f.name}>
      <label className="row" style={{ gap: 6 }}>
        <input type="checkbox" name={f.name} checked={form.values[f.name] === "true"} onChange={(e) => form.setField(f.name, String(e.target.checked))} />
        {f.label}
      </label>
      <span className="hint">{f.hint}</span>
    </div>
  );
}

function SelectField({ f, form }: { f: FieldSpec; form: FormState }) {
  const id = `f-${f.name}`;
  const err = form.errorFor(f.name);
  const chosen = f.options?.find((o) => o.value === form.values[f.name]);
  return (
    <div className="fieldbox" data-field={f.name}>
      <label htmlFor={id}>{f.label}</label>
      <select id={id} name={f.name} value={form.values[f.name] ?? ""} aria-describedby={`${id}-msg`} onChange={(e) => form.setField(f.name, e.target.value)}>
        {isOptionalChoice(f) && <option value="">{`(the server's own)`}</option>}
        {f.options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldMessage id={id} err={err} hint={chosen?.description ?? f.hint} />
    </div>
  );
}

function TextField({ f, form, extra }: { f: FieldSpec; form: FormState; extra?: ReactNode }) {
  const id = `f-${f.name}`;
  const err = form.errorFor(f.name);
  return (
    <div className="fieldbox" data-field={f.name}>
      <label htmlFor={id}>
        {f.label}
        {f.unit && <span className="unit"> ({f.unit})</span>}
      </label>
      <input
        id={id}
        name={f.name}
        // Text, not type=number: a number input reports "abc" or "1e" as empty, and the
        // form must check exactly what the user sees.
        type="text"
        inputMode={f.control === "text" ? undefined : "numeric"}
        autoComplete="off"
        value={form.values[f.name] ?? ""}
        aria-invalid={err ? true : undefined}
        aria-describedby={`${id}-msg`}
        onChange={(e) => form.setField(f.name, e.target.value)}
        onBlur={() => form.touch(f.name)}
      />
      {extra}
      <FieldMessage id={id} err={err} hint={f.hint} />
    </div>
  );
}

/** Under a field: its error when it has one, else its hint; the field's aria-describedby points here. */
function FieldMessage({ id, err, hint }: { id: string; err: string | undefined; hint: string | undefined }) {
  return err ? (
    <span className="field-error" id={`${id}-msg`} role="alert">
      {err}
    </span>
  ) : (
    <span className="hint" id={`${id}-msg`}>
      {hint}
    </span>
  );
}
