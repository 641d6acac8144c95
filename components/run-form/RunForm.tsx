"use client";
// The New run form. Every knob is shown and checked as it is typed with the same Zod schema the API and
// the CLI use (lib/workloads.ts), so a bad field gets the same message here, in a 400 from POST /api/runs
// and from `npm run bench`. The server's answer is shown the same way, beside the field it names.
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { toCliCommand } from "@/lib/cli-command";
import { fmtDuration } from "@/lib/run-format";
import type { PublicTarget, TargetInfo } from "@/lib/targets";
import { connectionsNeeded, PRESETS, presetById, WorkloadConfig, type WorkloadKind } from "@/lib/workloads";
import { FIELDS, GROUP_LABEL, toFormValues, toInput, validate, type FormValues } from "./fields";

export interface RunFormInitial {
  config: WorkloadConfig;
  presetId: string | null;
  targetId: string;
  /** The run this form was opened from ("Edit and run"), shown as a note. */
  fromRunId?: string;
}

type InfoState = { state: "loading" } | { state: "ok"; info: TargetInfo } | { state: "error"; error: string };

const KIND_TEXT: Record<WorkloadKind, string> = {
  pubsub: "Kafka-style log: partition tables, consumer groups with offsets, every group reads every message.",
  queue: "A work queue: readers take rows with SELECT … FOR UPDATE SKIP LOCKED and delete them.",
};

export function RunForm({ initial, targets: initialTargets }: { initial: RunFormInitial; targets: PublicTarget[] }) {
  const router = useRouter();
  const start = toFormValues(initial.config);
  const [kind, setKind] = useState<WorkloadKind>(start.kind);
  const [values, setValues] = useState<FormValues>(start.values);
  const [tune, setTune] = useState(start.tuneTableVacuum);
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
  const formRef = useRef<HTMLFormElement>(null);

  const parsed = useMemo(() => validate(toInput(kind, values, tune)), [kind, values, tune]);
  const clientErrors = parsed.ok ? {} : parsed.errors;
  const errorFor = (name: string): string | undefined =>
    serverErrors[name] ?? (touched.has(name) || submitted ? clientErrors[name] : undefined);
  const needed = parsed.ok ? connectionsNeeded(parsed.config) : null;
  const target = targets.find((t) => t.id === targetId) ?? targets[0];

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

  const clearServer = (name: string) =>
    setServerErrors((e) => {
      if (!(name in e) && !("connections" in e) && !("_" in e)) return e;
      const { [name]: _drop, connections: _c, _: _g, ...rest } = e;
      return rest;
    });

  const setField = (name: string, v: string) => {
    setValues((old) => {
      const next = { ...old, [name]: v };
      // Readers per group must equal partitions: keep them together while they agree.
      if (kind === "pubsub" && name === "partitions" && old.readers === old.partitions) next.readers = v;
      return next;
    });
    setEdited(true);
    clearServer(name);
  };

  const applyPreset = (id: string) => {
    setPresetId(id);
    const p = presetById(id);
    if (!p) return;
    const f = toFormValues(WorkloadConfig.parse(p.config));
    setKind(f.kind);
    setValues(f.values);
    setTune(f.tuneTableVacuum);
    setEdited(false);
    setTouched(new Set());
    setServerErrors({});
  };

  const switchKind = (k: WorkloadKind) => {
    if (k === kind) return;
    // Keep the shared knobs, take the other workload's own knobs from its defaults.
    const defaults = toFormValues(WorkloadConfig.parse({ kind: k }));
    const next: FormValues = { ...defaults.values };
    for (const f of FIELDS) if (f.kinds.includes(k) && f.kinds.includes(kind) && f.name !== "readers") next[f.name] = values[f.name];
    setKind(k);
    setValues(next);
    setTune(defaults.tuneTableVacuum);
    setPresetId(k === "pubsub" ? "pubsub-defaults" : "queue-defaults");
    setEdited(true);
    setServerErrors({});
  };

  const launch = async (e: React.FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!parsed.ok) {
      focusFirstError(formRef.current);
      return;
    }
    setLaunching(true);
    setServerErrors({});
    const r = await fetch("/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ config: toInput(kind, values, tune), targetId }),
    }).catch(() => null);
    if (r?.status === 201) {
      const { url } = (await r.json()) as { url: string };
      router.push(url);
      return;
    }
    setLaunching(false);
    if (!r) {
      setServerErrors({ _: "The app did not answer. Is `npm start` still running?" });
      return;
    }
    const body = (await r.json().catch(() => ({}))) as { error?: string; fields?: Record<string, string> };
    setServerErrors(body.fields ?? { _: body.error ?? `the server answered HTTP ${r.status}` });
    if (body.fields?.connections || body.fields?.targetId) setInfoNonce((n) => n + 1);
    setTimeout(() => focusFirstError(formRef.current), 0);
  };

  const shown = FIELDS.filter((f) => f.kinds.includes(kind));
  const fieldNames = new Set(shown.map((f) => f.name));
  const general = Object.entries({ ...(submitted ? clientErrors : {}), ...serverErrors }).filter(
    ([k]) => !fieldNames.has(k) && k !== "targetId" && k !== "connections",
  );
  const preset = presetById(presetId);
  const tooMany = info.state === "ok" && needed !== null && needed > info.info.usable;
  const total = parsed.ok ? parsed.config.warmupSeconds + parsed.config.durationSeconds : null;

  return (
    <form ref={formRef} className="run-form" noValidate onSubmit={launch} aria-label="New run">
      <div className="stack form-main">
        <section className="panel">
          <h2>Workload</h2>
          <div className="segmented big" role="radiogroup" aria-label="Workload">
            {(["pubsub", "queue"] as const).map((k) => (
              <label key={k} className={kind === k ? "on" : ""}>
                <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => switchKind(k)} />
                {k === "pubsub" ? "pub/sub" : "queue"}
              </label>
            ))}
          </div>
          <p className="hint">{KIND_TEXT[kind]}</p>
          <div className="fieldbox" style={{ marginTop: 12 }}>
            <label htmlFor="preset">Preset</label>
            <select id="preset" value={presetId} onChange={(e) => applyPreset(e.target.value)}>
              <optgroup label="Defaults">
                {PRESETS.filter((p) => !p.referenceId).map((p) => (
                  <option key={p.id} value={p.id}>{p.label}</option>
                ))}
              </optgroup>
              <optgroup label="Published scenarios">
                {PRESETS.filter((p) => p.referenceId).map((p) => (
                  <option key={p.id} value={p.id}>{p.label}</option>
                ))}
              </optgroup>
              {presetId === "custom" && <option value="custom">custom</option>}
            </select>
            <span className="hint">
              {initial.fromRunId && presetId === "custom" && !edited ? `Copied from run ${initial.fromRunId}. ` : ""}
              {preset ? preset.description : ""}
              {preset && edited ? " (edited)" : ""}
            </span>
          </div>
        </section>

        {(["load", "batches", "timing"] as const).map((g) => (
          <section key={g} className="panel">
            <h2>{GROUP_LABEL[g]}</h2>
            <div className="form-grid">
              {shown
                .filter((f) => f.group === g)
                .map((f) => {
                  const id = `f-${f.name}`;
                  const err = errorFor(f.name);
                  return (
                    <div key={f.name} className="fieldbox" data-field={f.name}>
                      <label htmlFor={id}>
                        {f.label}
                        {f.unit && <span className="unit"> ({f.unit})</span>}
                      </label>
                      <input
                        id={id}
                        name={f.name}
                        type="number"
                        inputMode="numeric"
                        step={1}
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
              {g === "batches" && kind === "queue" && (
                <div className="fieldbox">
                  <label className="row" style={{ gap: 6 }}>
                    <input type="checkbox" checked={tune} onChange={(e) => (setTune(e.target.checked), setEdited(true))} />
                    Tune table vacuum
                  </label>
                  <span className="hint">autovacuum settings on the queue table, as the reference&rsquo;s -tune-table-vacuum</span>
                </div>
              )}
            </div>
          </section>
        ))}
      </div>

      <aside className="stack form-side">
        <section className="panel">
          <h2>Target</h2>
          <div className="fieldbox">
            <label htmlFor="target">Run against</label>
            <select id="target" value={targetId} onChange={(e) => (setTargetId(e.target.value), clearServer("targetId"))} aria-invalid={serverErrors.targetId ? true : undefined}>
              {targets.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            <span className="hint mono break" data-testid="target-url">{target?.maskedUrl}</span>
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
          <button type="submit" className="btn primary big" disabled={launching || tooMany}>
            {launching ? "Checking the target and launching…" : "Launch run"}
          </button>
          {total !== null && (
            <p className="hint">
              Load for {fmtDuration(total)} ({fmtDuration(parsed.ok ? parsed.config.warmupSeconds : 0)} warm-up + {fmtDuration(parsed.ok ? parsed.config.durationSeconds : 0)} measured), plus setup and verification.
              Runs queue: one runs at a time.
            </p>
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
              <pre className="cmd">{toCliCommand(parsed.config, target && !target.isDefault ? target.maskedUrl : undefined)}</pre>
            </details>
          )}
        </section>
      </aside>
    </form>
  );
}

function focusFirstError(form: HTMLFormElement | null) {
  form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}

function ConnectionsNote({ info, needed, kind, parsedOk, onRetry }: { info: InfoState; needed: number | null; kind: WorkloadKind; parsedOk: boolean; onRetry: () => void }) {
  const clients = kind === "pubsub" ? "writers + readers × groups" : "writers + readers";
  if (info.state === "loading") return <p className="hint" data-testid="connections">Checking the target…</p>;
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
  const limits = `the server allows ${i.usable} (max_connections ${i.maxConnections} − ${i.reservedConnections} reserved; ${i.inUse} in use now)`;
  if (!parsedOk || needed === null)
    return <p className="hint" data-testid="connections">PostgreSQL {i.serverVersion}: {limits}.</p>;
  const cls = needed > i.usable ? "alert bad" : needed > i.available ? "alert warn" : "conn-ok";
  return (
    <div className={`${cls} small`} data-testid="connections" data-needed={needed} data-usable={i.usable}>
      This run opens <strong>{needed}</strong> connections ({clients} + 1 for setup and monitoring); {limits}.
      {needed > i.usable && " Too many: lower writers or readers, or raise max_connections on the server."}
      {needed <= i.usable && needed > i.available && " More than are free right now: the run fails to connect unless other clients disconnect first."}
      <span className="hint"> PostgreSQL {i.serverVersion}.</span>
    </div>
  );
}

function AddTarget({ savedSelected, onAdded, onDeleted }: { savedSelected: PublicTarget | null; onAdded: (t: PublicTarget) => void; onDeleted: (id: string) => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string | null>(null);

  const save = async () => {
    setBusy(true);
    setErrors({});
    setNote(null);
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
      {note && <p className="hint" role="status">{note}</p>}
      {open && (
        <div className="stack" data-testid="add-target">
          <div className="fieldbox">
            <label htmlFor="t-name">Name</label>
            <input id="t-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. staging (default: host/database)" aria-invalid={errors.name ? true : undefined} />
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
