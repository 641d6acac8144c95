// The New run form's target card: which target to run against (saved ones added or forgotten here), its masked
// URL, and whether it can take this run's connections (ConnectionsNote).
import { useState } from "react";
import { ENGINE_CONNECTIONS, type WorkloadKind, workloadDefinition } from "@/lib/workloads/config";
import type { PublicTarget } from "@/lib/targets/store";
import { AddTarget } from "./AddTarget";
import type { FormState } from "./useFormState";
import type { InfoState } from "./useTargetChecks";

/** The targets offered and the one chosen ("default" when the one asked for is not among them); `reason`: why the
 *  form picked the initial one (a published scenario's shape), said while it stays picked. */
export function useTargetChoice(initialTargets: PublicTarget[], initialId: string, reason?: string) {
  const [targets, setTargets] = useState(initialTargets);
  const [targetId, setTargetId] = useState(initialTargets.some((t) => t.id === initialId) ? initialId : "default");
  return {
    targets,
    targetId,
    reason: targetId === initialId ? reason : undefined,
    target: targets.find((t) => t.id === targetId) ?? targets[0],
    choose: setTargetId,
    added: (t: PublicTarget) => {
      setTargets((ts) => [...ts, t]);
      setTargetId(t.id);
    },
    deleted: (id: string) => {
      setTargets((ts) => ts.filter((t) => t.id !== id));
      setTargetId("default");
    },
  };
}

export type TargetChoice = ReturnType<typeof useTargetChoice>;

export function TargetPanel({
  choice,
  form,
  info,
  needed,
  onRetry,
}: {
  choice: TargetChoice;
  form: FormState;
  info: InfoState;
  needed: number | null;
  onRetry: () => void;
}) {
  const { serverErrors } = form;
  const { target } = choice;
  return (
    <section className="panel">
      <h2>Target</h2>
      <div className="fieldbox">
        <label htmlFor="target">Run against</label>
        <select
          id="target"
          value={choice.targetId}
          onChange={(e) => (choice.choose(e.target.value), form.clearServer("targetId"))}
          aria-invalid={serverErrors.targetId ? true : undefined}
        >
          {choice.targets.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        <span className="hint mono break" data-testid="target-url">
          {target?.maskedUrl}
        </span>
        {target?.replicated && (
          <span className="hint" data-testid="target-about">
            {target.replicated.about}
          </span>
        )}
        {choice.reason && (
          <span className="hint" data-testid="target-reason">
            {choice.reason}
          </span>
        )}
        {serverErrors.targetId && (
          <span className="field-error" role="alert">
            {serverErrors.targetId}
          </span>
        )}
      </div>
      <ConnectionsNote info={info} needed={needed} kind={form.kind} parsedOk={form.parsed.ok} onRetry={onRetry} />
      {serverErrors.connections && (
        <p className="field-error" role="alert">
          {serverErrors.connections}
        </p>
      )}
      <AddTarget savedSelected={target && !target.isDefault && !target.replicated ? target : null} onAdded={choice.added} onDeleted={choice.deleted} />
    </section>
  );
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
  if (info.state === "pending")
    return (
      <p className="hint" data-testid="connections">
        {info.note}
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
