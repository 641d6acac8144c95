"use client";
// The New run form. Every knob is shown and checked as it is typed with the same Zod schema the API and
// the CLI use (lib/workloads/config.ts), so a bad field gets the same message here, in a 400 from POST /api/runs
// and from `npm run bench`. The server's answer is shown the same way, beside the field it names.
// What is launched is what the form shows: a blank or non-numeric field is an error, never a default; the
// total time is shown beside Launch, and a run that loads the target for more than 5 minutes is confirmed.
import { useRouter } from "next/navigation";
import { SweepQueues } from "./SweepQueues";
import { useEffect, useMemo, useRef, useState } from "react";
import { FindCeiling } from "@/components/ceiling/FindCeiling";
import { FitWarningList } from "@/components/compare/FitWarnings";
import { hasVariants } from "@/lib/compare/ab";
import { toCliCommand } from "@/lib/runs/cli-command";
import type { CliTarget } from "@/lib/targets/default-target";
import type { FitWarning } from "@/lib/references/references";
import { fmtDuration } from "@/lib/runs/format";
import type { PublicTarget, TargetInfo } from "@/lib/targets/store";
import {
  connectionsNeeded,
  ENGINE_CONNECTIONS,
  loadSecondsAtMost,
  LONG_RUN_SECONDS,
  MAX_DRAIN_SECONDS,
  parseConfig,
  PRESETS,
  presetById,
  SHORT_WINDOW_SECONDS,
  workloadDefinition,
  WorkloadConfig,
  type Preset,
  type WorkloadKind,
} from "@/lib/workloads/config";
import { fieldsOf, GROUP_LABEL, isLongPreset, pickWorkload, presetValues, toFormValues, toInput, type FormValues } from "./fields";
import { WorkloadPicker } from "./WorkloadPicker";

export interface RunFormInitial {
  config: WorkloadConfig;
  presetId: string | null;
  targetId: string;
  /** The run this form was opened from ("Edit and run"), shown as a note. */
  fromRunId?: string;
  /** Another study's published result this form was opened from ("Run this here", lib/references/published.ts): its fit
   *  warnings are shown as a reference preset's are, while the config is not switched to a preset. */
  published?: { id: string; label: string };
}

type InfoState = { state: "loading" } | { state: "ok"; info: TargetInfo } | { state: "error"; error: string };
type FitState = { state: "loading" } | { state: "ok"; warnings: FitWarning[]; targetName: string } | { state: "error"; error: string };

/** The preset whose published window would make a long run, or null: the form then offers a short one. */
function longPreset(id: string | null): Preset | null {
  const p = id ? presetById(id) : undefined;
  return p && isLongPreset(p) ? p : null;
}

/** `defaultCli`: how a terminal in this project reaches the default target (lib/targets/default-target.ts), for the command preview. */
export function RunForm({ initial, targets: initialTargets, defaultCli = {} }: { initial: RunFormInitial; targets: PublicTarget[]; defaultCli?: CliTarget }) {
  const router = useRouter();
  const initialPreset = initial.presetId ? presetById(initial.presetId) : undefined;
  const start = initialPreset ? presetValues(initialPreset) : toFormValues(initial.config);
  const [kind, setKind] = useState<WorkloadKind>(start.kind);
  const [values, setValues] = useState<FormValues>(start.values);
  const [presetId, setPresetId] = useState<string>(initial.presetId ?? "custom");
  const [edited, setEdited] = useState(false);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [launching, setLaunching] = useState(false);
  const [targets, setTargets] = useState(initialTargets);
  const [targetId, setTargetId] = useState(initialTargets.some((t) => t.id === initial.targetId) ? initial.targetId : "default");
  const [info, setInfo] = useState<InfoState>({ state: "loading" });
  const [infoNonce, setInfoNonce] = useState(0);
  const [fit, setFit] = useState<FitState>({ state: "loading" });
  /** The exact request a long run was confirmed for; any change to the form asks again. */
  const [confirmedFor, setConfirmedFor] = useState<string | null>(null);
  // "Run baseline and modded" (lib/compare/ab.ts): both variants of the config, queued back to back, then compared.
  const [pair, setPair] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const confirmRef = useRef<HTMLDivElement>(null);

  const input = useMemo(() => toInput(kind, values), [kind, values]);
  const parsed = useMemo(() => parseConfig(input), [input]);
  const clientErrors = parsed.ok ? {} : parsed.errors;
  const errorFor = (name: string): string | undefined => serverErrors[name] ?? (touched.has(name) || submitted ? clientErrors[name] : undefined);
  const needed = parsed.ok ? connectionsNeeded(parsed.config) : null;
  const target = targets.find((t) => t.id === targetId) ?? targets[0];
  const preset = presetById(presetId);
  const long = longPreset(presetId);
  const total = parsed.ok ? loadSecondsAtMost(parsed.config) : null;
  const isLong = total !== null && total > LONG_RUN_SECONDS;
  const requestKey = JSON.stringify({ input, targetId });
  const confirming = isLong && confirmedFor === requestKey;
  // Any change to the run withdraws the question: coming back to the same values must not re-open it.
  useEffect(() => setConfirmedFor((c) => (c === null || c === requestKey ? c : null)), [requestKey]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: infoNonce is a "check again" button's counter: changing it must re-fetch.
  useEffect(() => {
    let cancelled = false;
    setInfo({ state: "loading" });
    fetch(`/api/targets/${encodeURIComponent(targetId)}/info`, { cache: "no-store" })
      .then(async (r) => {
        const body = await r.json();
        if (cancelled) return;
        setInfo(r.ok ? { state: "ok", info: body.info } : { state: "error", error: body.error ?? `HTTP ${r.status}` });
      })
      .catch(() => !cancelled && setInfo({ state: "error", error: "the app did not answer" }));
    return () => {
      cancelled = true;
    };
  }, [targetId, infoNonce]);

  // A published scenario's fit on this target and machine, for the config as it stands now: the same
  // fitWarnings as /references/[id], through GET /api/references/:id/fit. Waits for typing to pause.
  const referenceId = preset?.referenceId ?? (presetId === "custom" ? initial.published?.id : undefined);
  const fitConfig = parsed.ok ? JSON.stringify(parsed.config) : null;
  useEffect(() => {
    if (!referenceId || !fitConfig) return;
    const ctl = new AbortController();
    setFit({ state: "loading" });
    const t = setTimeout(() => {
      const q = new URLSearchParams({ targetId, config: fitConfig });
      fetch(`/api/references/${encodeURIComponent(referenceId)}/fit?${q}`, { cache: "no-store", signal: ctl.signal })
        .then(async (r) => {
          const body = await r.json();
          setFit(r.ok ? { state: "ok", warnings: body.warnings, targetName: body.target.name } : { state: "error", error: body.error ?? `HTTP ${r.status}` });
        })
        .catch((err) => !ctl.signal.aborted && setFit({ state: "error", error: `the app did not answer (${(err as Error).message})` }));
    }, 300);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [referenceId, fitConfig, targetId]);

  const clearServer = (name: string) =>
    setServerErrors((e) => {
      if (!(name in e) && !("connections" in e) && !("_" in e)) return e;
      const { [name]: _drop, connections: _c, _: _g, ...rest } = e;
      return rest;
    });

  const setField = (name: string, v: string) => {
    setValues((old) => ({ ...old, [name]: v }));
    setEdited(true);
    clearServer(name);
  };

  /** The Length choice of a long preset: its shape with the short window, or its full published window. */
  const setWindow = (seconds: number) => {
    setValues((old) => ({ ...old, durationSeconds: String(seconds) }));
    clearServer("durationSeconds");
  };

  const applyPreset = (id: string) => {
    setPresetId(id);
    const p = presetById(id);
    if (!p) return;
    const f = presetValues(p);
    setKind(f.kind);
    setValues(f.values);
    setEdited(false);
    setTouched(new Set());
    setServerErrors({});
  };

  const switchKind = (k: WorkloadKind) => {
    if (k === kind) return;
    // The workload's default preset, applied whole: the preset named is what the fields hold (pickWorkload).
    const picked = pickWorkload(k);
    setKind(picked.kind);
    setValues(picked.values);
    setPresetId(picked.presetId);
    setEdited(false);
    setTouched(new Set());
    setServerErrors({});
  };

  const launch = async (e: React.FormEvent, asPair = false) => {
    e.preventDefault();
    setPair(asPair);
    setSubmitted(true);
    if (!parsed.ok) {
      focusFirstError(formRef.current);
      return;
    }
    if (isLong && !confirming) {
      // A run longer than 5 minutes is never a surprise: say how long, and launch only on a second, explicit yes.
      setConfirmedFor(requestKey);
      setTimeout(() => confirmRef.current?.focus(), 0);
      return;
    }
    await send(asPair);
  };

  const send = async (asPair = pair) => {
    setLaunching(true);
    setServerErrors({});
    const r = await fetch(asPair ? "/api/runs/ab" : "/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ config: input, targetId }),
    }).catch(() => null);
    if (r?.status === 201) {
      const { url } = (await r.json()) as { url: string };
      router.push(url);
      return;
    }
    setLaunching(false);
    setConfirmedFor(null);
    if (!r) {
      setServerErrors({ _: "The app did not answer. Is `npm start` still running?" });
      return;
    }
    const body = (await r.json().catch(() => ({}))) as { error?: string; fields?: Record<string, string> };
    setServerErrors(body.fields ?? { _: body.error ?? `the server answered HTTP ${r.status}` });
    if (body.fields?.connections || body.fields?.targetId) setInfoNonce((n) => n + 1);
    setTimeout(() => focusFirstError(formRef.current), 0);
  };

  const shown = fieldsOf(kind);
  // A section only when the workload has fields in it (DBOS's workloads have no messages or batches).
  const groups = (["load", "batches", "timing"] as const).filter((g) => shown.some((f) => f.group === g));
  const fieldNames = new Set<string>(shown.map((f) => f.name));
  const general = Object.entries({ ...(submitted ? clientErrors : {}), ...serverErrors }).filter(
    ([k]) => !fieldNames.has(k) && k !== "targetId" && k !== "connections",
  );
  const tooMany = info.state === "ok" && needed !== null && needed > info.info.usable;
  const longFull = long ? WorkloadConfig.parse(long.config).durationSeconds : null;

  return (
    <form ref={formRef} className="run-form" noValidate onSubmit={launch} aria-label="New run">
      <div className="stack form-main">
        <section className="panel">
          <h2>Workload</h2>
          <WorkloadPicker kind={kind} onPick={(k) => switchKind(k as WorkloadKind)} />
          <p className="hint">{workloadDefinition(kind)?.description}</p>
          <div className="fieldbox" style={{ marginTop: 12 }}>
            <label htmlFor="preset">Preset</label>
            <select id="preset" value={presetId} onChange={(e) => applyPreset(e.target.value)}>
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
              {initial.published && presetId === "custom"
                ? `The config of the published result "${initial.published.label}"${edited ? " (edited)" : ""}. `
                : ""}
              {preset ? preset.description : ""}
              {preset && edited ? " (edited)" : ""}
            </span>
          </div>
          {long && longFull !== null && (
            <fieldset className="window-choice" data-testid="window-choice">
              <legend>Length</legend>
              <label>
                <input
                  type="radio"
                  name="window"
                  checked={values.durationSeconds === String(SHORT_WINDOW_SECONDS)}
                  onChange={() => setWindow(SHORT_WINDOW_SECONDS)}
                />
                Short: same shape, {SHORT_WINDOW_SECONDS} s window
              </label>
              <label>
                <input type="radio" name="window" checked={values.durationSeconds === String(longFull)} onChange={() => setWindow(longFull)} />
                Full published length: {fmtDuration(longFull)}
              </label>
            </fieldset>
          )}
          {referenceId && (
            <div className="fit" data-testid="fit-warnings" aria-live="polite">
              {!parsed.ok ? (
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
          )}
        </section>

        {groups.map((g) => (
          <section key={g} className="panel">
            <h2>{GROUP_LABEL[g]}</h2>
            <div className="form-grid">
              {shown
                .filter((f) => f.group === g)
                .map((f) => {
                  const id = `f-${f.name}`;
                  if (f.derivedFrom) {
                    const v = parsed.ok ? String((parsed.config as Record<string, unknown>)[f.name]) : "—";
                    return (
                      <div key={f.name} className="fieldbox" data-field={f.name}>
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
                  const err = errorFor(f.name);
                  if (f.control === "bool")
                    return (
                      <div key={f.name} className="fieldbox" data-field={f.name}>
                        <label className="row" style={{ gap: 6 }}>
                          <input
                            type="checkbox"
                            name={f.name}
                            checked={values[f.name] === "true"}
                            onChange={(e) => setField(f.name, String(e.target.checked))}
                          />
                          {f.label}
                        </label>
                        <span className="hint">{f.hint}</span>
                      </div>
                    );
                  if (f.control === "select") {
                    const chosen = f.options?.find((o) => o.value === values[f.name]);
                    return (
                      <div key={f.name} className="fieldbox" data-field={f.name}>
                        <label htmlFor={id}>{f.label}</label>
                        <select
                          id={id}
                          name={f.name}
                          value={values[f.name] ?? ""}
                          aria-describedby={`${id}-msg`}
                          onChange={(e) => setField(f.name, e.target.value)}
                        >
                          {f.options?.map((o) => (
                            <option key={o.value} value={o.value}>
                              {o.label}
                            </option>
                          ))}
                        </select>
                        {err ? (
                          <span className="field-error" id={`${id}-msg`} role="alert">
                            {err}
                          </span>
                        ) : (
                          <span className="hint" id={`${id}-msg`}>
                            {chosen?.description ?? f.hint}
                          </span>
                        )}
                      </div>
                    );
                  }
                  return (
                    <div key={f.name} className="fieldbox" data-field={f.name}>
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
                        value={values[f.name] ?? ""}
                        aria-invalid={err ? true : undefined}
                        aria-describedby={`${id}-msg`}
                        onChange={(e) => setField(f.name, e.target.value)}
                        onBlur={() => setTouched((t) => new Set(t).add(f.name))}
                      />
                      {err ? (
                        <span className="field-error" id={`${id}-msg`} role="alert">
                          {err}
                        </span>
                      ) : (
                        <span className="hint" id={`${id}-msg`}>
                          {f.hint}
                        </span>
                      )}
                    </div>
                  );
                })}
            </div>
          </section>
        ))}
        {kind === "queued-workflows" && <SweepQueues input={input} targetId={targetId} ready={parsed.ok} runSeconds={total} />}
      </div>

      <aside className="stack form-side">
        <section className="panel">
          <h2>Target</h2>
          <div className="fieldbox">
            <label htmlFor="target">Run against</label>
            <select
              id="target"
              value={targetId}
              onChange={(e) => (setTargetId(e.target.value), clearServer("targetId"))}
              aria-invalid={serverErrors.targetId ? true : undefined}
            >
              {targets.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            <span className="hint mono break" data-testid="target-url">
              {target?.maskedUrl}
            </span>
            {serverErrors.targetId && (
              <span className="field-error" role="alert">
                {serverErrors.targetId}
              </span>
            )}
          </div>
          <ConnectionsNote info={info} needed={needed} kind={kind} parsedOk={parsed.ok} onRetry={() => setInfoNonce((n) => n + 1)} />
          {serverErrors.connections && (
            <p className="field-error" role="alert">
              {serverErrors.connections}
            </p>
          )}
          <AddTarget
            savedSelected={target && !target.isDefault ? target : null}
            onAdded={(t) => {
              setTargets((ts) => [...ts, t]);
              setTargetId(t.id);
            }}
            onDeleted={(id) => {
              setTargets((ts) => ts.filter((t) => t.id !== id));
              setTargetId("default");
            }}
          />
        </section>

        <section className="panel launch">
          {parsed.ok && total !== null && (
            <div className={`total-time${isLong ? " long" : ""}`} data-testid="total-time" data-seconds={total}>
              <div className="total-figure">Up to {fmtDuration(total)}</div>
              <div className="hint">
                {fmtDuration(parsed.config.warmupSeconds)} warm-up + {fmtDuration(parsed.config.durationSeconds)} measured + up to{" "}
                {fmtDuration(MAX_DRAIN_SECONDS)} draining, plus setup and verification. Runs queue: one runs at a time.
              </div>
            </div>
          )}
          <button type="submit" className="btn primary big" disabled={launching || tooMany || confirming}>
            {launching && !pair ? "Checking the target and launching…" : "Launch run"}
          </button>
          {hasVariants(kind) && (
            <>
              <button
                type="button"
                className="btn big"
                data-testid="launch-ab"
                disabled={launching || tooMany || confirming}
                onClick={(e) => void launch(e, true)}
              >
                {launching && pair ? "Checking the target and launching both…" : "Run baseline and modded"}
              </button>
              <p className="hint">Both variants with this load, one after the other on this target, then their comparison.</p>
            </>
          )}
          {confirming && total !== null && (
            <div
              className="alert warn confirm-long"
              role="alertdialog"
              aria-labelledby="confirm-long-title"
              tabIndex={-1}
              ref={confirmRef}
              data-testid="confirm-long"
            >
              <p id="confirm-long-title" style={{ margin: 0 }}>
                <strong>
                  {pair ? `These two runs load the target for up to ${fmtDuration(2 * total)}.` : `This run loads the target for up to ${fmtDuration(total)}.`}
                </strong>{" "}
                Other runs wait behind it; you can cancel it from its page.
              </p>
              <div className="row" style={{ marginTop: 8 }}>
                <button type="button" className="btn primary" onClick={() => void send()} disabled={launching}>
                  {pair ? `Yes, launch both ${fmtDuration(total)} runs` : `Yes, launch the ${fmtDuration(total)} run`}
                </button>
                {long && values.durationSeconds !== String(SHORT_WINDOW_SECONDS) && (
                  <button type="button" className="btn" onClick={() => setWindow(SHORT_WINDOW_SECONDS)}>
                    Use a {SHORT_WINDOW_SECONDS} s window instead
                  </button>
                )}
                <button type="button" className="btn" onClick={() => setConfirmedFor(null)}>
                  Go back
                </button>
              </div>
            </div>
          )}
          {general.length > 0 && (
            <div className="alert bad" role="alert" data-testid="form-error">
              {general.map(([k, m]) => (
                <div key={k}>{m}</div>
              ))}
            </div>
          )}
          {submitted && !parsed.ok && general.length === 0 && (
            <p className="field-error" role="alert" data-testid="form-error">
              Fix the {Object.keys(clientErrors).length === 1 ? "field" : `${Object.keys(clientErrors).length} fields`} marked in red, then launch.
            </p>
          )}
          {parsed.ok && (
            <details>
              <summary className="small">Same run from a terminal</summary>
              <pre className="cmd">
                {target && !target.isDefault
                  ? toCliCommand(parsed.config, target.maskedUrl)
                  : toCliCommand(parsed.config, defaultCli.targetUrl, defaultCli.env)}
              </pre>
            </details>
          )}
          <FindCeiling kind={kind} config={input} configOk={parsed.ok} targetId={targetId} warmupSeconds={parsed.ok ? parsed.config.warmupSeconds : null} />
        </section>
      </aside>
    </form>
  );
}

function focusFirstError(form: HTMLFormElement | null) {
  form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}

function ConnectionsNote({
  info,
  needed,
  kind,
  parsedOk,
  onRetry,
}: {
  info: InfoState;
  needed: number | null;
  kind: WorkloadKind;
  parsedOk: boolean;
  onRetry: () => void;
}) {
  const clients = workloadDefinition(kind)?.clientsFormula ?? "clients";
  if (info.state === "loading")
    return (
      <p className="hint" data-testid="connections">
        Checking the target…
      </p>
    );
  if (info.state === "error")
    return (
      <div className="alert bad small" data-testid="connections" role="alert">
        Cannot reach this target: {info.error}{" "}
        <button type="button" className="linkish" onClick={onRetry}>
          check again
        </button>
      </div>
    );
  const i = info.info;
  // A target no run can use (read-only, the control store's own database): said before anything else.
  const unusable = i.controlStore ?? i.readOnly;
  if (unusable)
    return (
      <div className="alert bad small" data-testid="connections" role="alert">
        No run can use this target: {unusable}.
      </div>
    );
  const limits = `the server allows ${i.usable} (max_connections ${i.maxConnections} − ${i.reservedConnections} reserved; ${i.inUse} in use now)`;
  if (!parsedOk || needed === null)
    return (
      <p className="hint" data-testid="connections">
        PostgreSQL {i.serverVersion}: {limits}.
      </p>
    );
  const cls = needed > i.usable ? "alert bad" : needed > i.available ? "alert warn" : "conn-ok";
  return (
    <div className={`${cls} small`} data-testid="connections" data-needed={needed} data-usable={i.usable}>
      This run opens <strong>{needed}</strong> connections ({clients} + {ENGINE_CONNECTIONS} for set-up and telemetry); {limits}.
      {needed > i.usable && " Too many: lower writers or readers, or raise max_connections on the server."}
      {needed <= i.usable && needed > i.available && " More than are free right now: the run fails to connect unless other clients disconnect first."}
      <span className="hint"> PostgreSQL {i.serverVersion}.</span>
    </div>
  );
}

function AddTarget({
  savedSelected,
  onAdded,
  onDeleted,
}: {
  savedSelected: PublicTarget | null;
  onAdded: (t: PublicTarget) => void;
  onDeleted: (id: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);

  const save = async () => {
    setBusy(true);
    setErrors({});
    setNote(null);
    setWarning(null);
    const r = await fetch("/api/targets", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: name || undefined, connectionString: url }),
    }).catch(() => null);
    setBusy(false);
    const body = r ? await r.json().catch(() => ({})) : {};
    if (r?.status === 201) {
      onAdded(body.target);
      setNote(`Saved "${body.target.name}" (PostgreSQL ${body.serverVersion}). The password stays on the server.`);
      setWarning(Array.isArray(body.warnings) && body.warnings.length ? body.warnings.join("; ") : null);
      setName("");
      setUrl("");
      setOpen(false);
      return;
    }
    setErrors(body.fields ?? { _: body.error ?? "the app did not answer" });
  };

  const forget = async () => {
    if (!savedSelected) return;
    setBusy(true);
    setWarning(null);
    const r = await fetch(`/api/targets/${encodeURIComponent(savedSelected.id)}`, { method: "DELETE" }).catch(() => null);
    setBusy(false);
    if (r?.ok) {
      onDeleted(savedSelected.id);
      setNote(`Forgot "${savedSelected.name}".`);
    } else setNote(r ? ((await r.json().catch(() => ({}))).error ?? `HTTP ${r.status}`) : "the app did not answer");
  };

  return (
    <div className="stack add-target">
      <div className="row">
        <button type="button" className="btn" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {open ? "Close" : "Add a target…"}
        </button>
        {savedSelected && (
          <button type="button" className="btn danger" onClick={forget} disabled={busy}>
            Forget this target
          </button>
        )}
      </div>
      {note && (
        <p className="hint" role="status">
          {note}
        </p>
      )}
      {warning && (
        <div className="alert warn small" role="alert" data-testid="target-warning">
          Warning: {warning}.
        </div>
      )}
      {open && (
        <div className="stack" data-testid="add-target">
          <div className="fieldbox">
            <label htmlFor="t-name">Name</label>
            <input
              id="t-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. staging (default: host/database)"
              aria-invalid={errors.name ? true : undefined}
            />
            {errors.name && <span className="field-error">{errors.name}</span>}
          </div>
          <div className="fieldbox">
            <label htmlFor="t-url">Connection string</label>
            <input
              id="t-url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="postgresql://user:password@host:5432/database"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={errors.connectionString ? true : undefined}
            />
            {errors.connectionString ? (
              <span className="field-error" role="alert">
                {errors.connectionString}
              </span>
            ) : (
              <span className="hint">Checked by connecting once. Kept on the server; the browser only ever sees it masked.</span>
            )}
          </div>
          {errors._ && <span className="field-error">{errors._}</span>}
          <div>
            <button type="button" className="btn primary" onClick={save} disabled={busy || !url.trim()}>
              {busy ? "Connecting…" : "Check and save"}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
