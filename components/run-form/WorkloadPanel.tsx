// The New run form's first panel: the workload, its preset (and where the config came from), the Length
// choice of a long published preset, and how a published scenario fits the chosen target.
import { FitWarningList } from "@/components/compare/FitWarnings";
import { fmtDuration } from "@/lib/runs/format";
import { PRESETS, type Preset, SHORT_WINDOW_SECONDS, WorkloadConfig, type WorkloadKind, workloadDefinition } from "@/lib/workloads/config";
import type { FormValues } from "./fields";
import type { FormState, RunFormInitial } from "./useFormState";
import type { FitState } from "./useTargetChecks";
import { WorkloadPicker } from "./WorkloadPicker";

export function WorkloadPanel({
  form,
  initial,
  referenceId,
  fit,
}: {
  form: FormState;
  initial: RunFormInitial;
  referenceId: string | undefined;
  fit: FitState;
}) {
  return (
    <section className="panel">
      <h2>Workload</h2>
      <WorkloadPicker kind={form.kind} onPick={(k) => form.switchKind(k as WorkloadKind)} />
      <p className="hint">{workloadDefinition(form.kind)?.description}</p>
      <PresetChoice form={form} initial={initial} />
      {form.long && <WindowChoice long={form.long} values={form.values} setWindow={form.setWindow} />}
      {referenceId && <FitNote parsedOk={form.parsed.ok} fit={fit} />}
    </section>
  );
}

function PresetChoice({ form, initial }: { form: FormState; initial: RunFormInitial }) {
  const { presetId, preset, edited } = form;
  return (
    <div className="fieldbox" style={{ marginTop: 12 }}>
      <label htmlFor="preset">Preset</label>
      <select id="preset" value={presetId} onChange={(e) => form.applyPreset(e.target.value)}>
        <optgroup label="Defaults">
          {PRESETS.filter((p) => !p.referenceId).map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </optgroup>
        <optgroup label="Published scenarios">
          {PRESETS.filter((p) => p.referenceId).map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </optgroup>
        {presetId === "custom" && <option value="custom">custom</option>}
      </select>
      <span className="hint">
        {initial.fromRunId && presetId === "custom" && !edited ? `Copied from run ${initial.fromRunId}. ` : ""}
        {initial.published && presetId === "custom" ? `The config of the published result "${initial.published.label}"${edited ? " (edited)" : ""}. ` : ""}
        {preset ? preset.description : ""}
        {preset && edited ? " (edited)" : ""}
      </span>
    </div>
  );
}

/** A long preset's Length: the same shape with a short window, or its full published window. */
function WindowChoice({ long, values, setWindow }: { long: Preset; values: FormValues; setWindow: (seconds: number) => void }) {
  const longFull = WorkloadConfig.parse(long.config).durationSeconds;
  return (
    <fieldset className="window-choice" data-testid="window-choice">
      <legend>Length</legend>
      <label>
        <input type="radio" name="window" checked={values.durationSeconds === String(SHORT_WINDOW_SECONDS)} onChange={() => setWindow(SHORT_WINDOW_SECONDS)} />
        Short: same shape, {SHORT_WINDOW_SECONDS} s window
      </label>
      <label>
        <input type="radio" name="window" checked={values.durationSeconds === String(longFull)} onChange={() => setWindow(longFull)} />
        {/* A long run's preset (lib/workloads/long-run.ts) publishes nothing: its length is its cap. */}
        {long.referenceId ? "Full published length" : "Full length, at most"}: {fmtDuration(longFull)}
      </label>
    </fieldset>
  );
}

function FitNote({ parsedOk, fit }: { parsedOk: boolean; fit: FitState }) {
  return (
    <div className="fit" data-testid="fit-warnings" aria-live="polite">
      {!parsedOk ? (
        <p className="hint">Fix the marked fields to see how this compares with the published run.</p>
      ) : fit.state === "loading" ? (
        <p className="hint">Checking how the published run fits this target…</p>
      ) : fit.state === "error" ? (
        <p className="hint">Could not check whether this fits the target: {fit.error}</p>
      ) : fit.warnings.length ? (
        <FitWarningList heading={`Running this here (${fit.targetName}):`} warnings={fit.warnings} />
      ) : (
        <p className="hint">This config fits {fit.targetName}.</p>
      )}
    </div>
  );
}
