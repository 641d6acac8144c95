// The New run form's launch bar: the total time the run loads the target, Launch (and "Run baseline and modded"
// for a workload with variants), the confirmation of a long run, the messages about no one field, the same run
// as a terminal command, and the ceiling search from this config.
import { FindCeiling } from "@/components/ceiling/FindCeiling";
import { hasVariants } from "@/lib/compare/ab";
import { DEFAULT_PAIRS, MAX_PAIRS } from "@/lib/compare/ab-order";
import { toCliCommand } from "@/lib/runs/cli-command";
import { fmtDuration } from "@/lib/runs/format";
import type { CliTarget } from "@/lib/targets/default-target";
import type { PublicTarget } from "@/lib/targets/store";
import { runTimeOf, SHORT_WINDOW_SECONDS, type WorkloadConfig } from "@/lib/workloads/config";
import { fieldsOf } from "./fields";
import type { FormState } from "./useFormState";
import type { LaunchState } from "./useLaunch";

export function LaunchPanel({
  form,
  launch,
  target,
  targetId,
  tooMany,
  defaultCli,
}: {
  form: FormState;
  launch: LaunchState;
  target: PublicTarget | undefined;
  targetId: string;
  tooMany: boolean;
  defaultCli: CliTarget;
}) {
  const { parsed, total, kind } = form;
  const { launching, pair, confirming } = launch;
  return (
    <section className="panel launch">
      {parsed.ok && total !== null && <TotalTime config={parsed.config} total={total} isLong={form.isLong} />}
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
            onClick={(e) => void launch.launch(e, true)}
          >
            {launching && pair ? "Checking the target and launching both…" : "Run baseline and modded"}
          </button>
          <label className="ab-pairs">
            Pairs{" "}
            <input
              type="number"
              min={1}
              max={MAX_PAIRS}
              step={1}
              value={launch.pairs}
              onChange={(e) => launch.setPairs(e.target.value)}
              data-testid="ab-pairs"
              style={{ width: "4em" }}
            />
          </label>
          <p className="hint">
            Both variants with this load on this target, pair after pair in balanced order (AB BA …), then each measure with its spread and the 95 % interval of
            the pairs&apos; differences. 3 pairs or more tell an effect from noise.
          </p>
        </>
      )}
      {confirming && total !== null && <ConfirmLong form={form} launch={launch} total={total} />}
      <FormErrors form={form} />
      {parsed.ok && (
        <details>
          <summary className="small">Same run from a terminal</summary>
          <pre className="cmd">
            {target?.replicated
              ? toCliCommand(parsed.config, undefined, target.replicated.cli.env, target.replicated.cli.args)
              : target && !target.isDefault
                ? toCliCommand(parsed.config, target.maskedUrl)
                : toCliCommand(parsed.config, defaultCli.targetUrl, defaultCli.env)}
          </pre>
        </details>
      )}
      <FindCeiling
        kind={kind}
        config={form.input}
        configOk={parsed.ok}
        targetId={targetId}
        warmupSeconds={parsed.ok ? parsed.config.warmupSeconds : null}
        labels={launch.labels}
      />
    </section>
  );
}

function TotalTime({ config, total, isLong }: { config: WorkloadConfig; total: number; isLong: boolean }) {
  const time = runTimeOf(config);
  return (
    <div className={`total-time${isLong ? " long" : ""}`} data-testid="total-time" data-seconds={total}>
      <div className="total-figure">Up to {fmtDuration(total)}</div>
      <div className="hint">
        {fmtDuration(time.warmup)} warm-up + {fmtDuration(time.measured)} measured + up to {fmtDuration(time.drainMax)} draining, plus setup and verification.
        Runs queue: one runs at a time.
      </div>
    </div>
  );
}

/** The pairs asked for, as a count (what the server will refuse counts as the default here). */
const abPairs = (launch: LaunchState): number => {
  const n = Number(launch.pairs);
  return Number.isInteger(n) && n >= 1 && n <= MAX_PAIRS ? n : DEFAULT_PAIRS;
};

/** A run longer than 5 minutes is launched only on a second, explicit yes (or made short, or withdrawn). */
function ConfirmLong({ form, launch, total }: { form: FormState; launch: LaunchState; total: number }) {
  const { pair } = launch;
  return (
    <div
      className="alert warn confirm-long"
      role="alertdialog"
      aria-labelledby="confirm-long-title"
      tabIndex={-1}
      ref={launch.confirmRef}
      data-testid="confirm-long"
    >
      <p id="confirm-long-title" style={{ margin: 0 }}>
        <strong>
          {pair
            ? `These ${2 * abPairs(launch)} runs load the target for up to ${fmtDuration(2 * abPairs(launch) * total)}.`
            : `This run loads the target for up to ${fmtDuration(total)}.`}
        </strong>{" "}
        Other runs wait behind it; you can cancel it from its page.
      </p>
      <div className="row" style={{ marginTop: 8 }}>
        <button type="button" className="btn primary" onClick={() => void launch.send()} disabled={launch.launching}>
          {pair ? `Yes, launch all ${2 * abPairs(launch)} ${fmtDuration(total)} runs` : `Yes, launch the ${fmtDuration(total)} run`}
        </button>
        {form.long && form.values.durationSeconds !== String(SHORT_WINDOW_SECONDS) && (
          <button type="button" className="btn" onClick={() => form.setWindow(SHORT_WINDOW_SECONDS)}>
            Use a {SHORT_WINDOW_SECONDS} s window instead
          </button>
        )}
        <button type="button" className="btn" onClick={launch.cancelConfirm}>
          Go back
        </button>
      </div>
    </div>
  );
}

/** Messages about no field on the form (the server's, or a field of another workload), else how many fields to fix. */
function FormErrors({ form }: { form: FormState }) {
  const { submitted, clientErrors, serverErrors, parsed } = form;
  const fieldNames = new Set<string>(fieldsOf(form.kind).map((f) => f.name));
  const general = Object.entries({ ...(submitted ? clientErrors : {}), ...serverErrors }).filter(
    // The target's and the labels' messages are shown beside them (TargetPanel, LabelsPanel).
    ([k]) => !fieldNames.has(k) && !["targetId", "connections", "name", "tags", "notes"].includes(k),
  );
  if (general.length > 0)
    return (
      <div className="alert bad" role="alert" data-testid="form-error">
        {general.map(([k, m]) => (
          <div key={k}>{m}</div>
        ))}
      </div>
    );
  if (submitted && !parsed.ok)
    return (
      <p className="field-error" role="alert" data-testid="form-error">
        Fix the {Object.keys(clientErrors).length === 1 ? "field" : `${Object.keys(clientErrors).length} fields`} marked in red, then launch.
      </p>
    );
  return null;
}
