"use client";
// The New run form. Every knob is shown and checked as it is typed with the same Zod schema the API and
// the CLI use (lib/workloads/config.ts), so a bad field gets the same message here, in a 400 from POST /api/runs
// and from `npm run bench`. The server's answer is shown the same way, beside the field it names.
// What is launched is what the form shows: a blank or non-numeric field is an error, never a default; the
// total time is shown beside Launch, and a run that loads the target for more than 5 minutes is confirmed.
// Its parts: the form's state (useFormState), the checks of the target (useTargetChecks), launching (useLaunch),
// and the panels: WorkloadPanel, FieldSections, TargetPanel, LaunchPanel, and the runs of sets (SweepQueues, RepeatRuns, SyncCommitLadder).
import { useRef } from "react";
import type { CliTarget } from "@/lib/targets/default-target";
import type { PublicTarget } from "@/lib/targets/store";
import { connectionsNeeded } from "@/lib/workloads/config";
import { FieldSections } from "./FieldSections";
import { LabelsPanel, useLabels } from "./LabelsPanel";
import { LaunchPanel } from "./LaunchPanel";
import { SweepQueues } from "./SweepQueues";
import { RepeatRuns } from "./RepeatRuns";
import { SyncCommitLadder } from "./SyncCommitLadder";
import { TargetPanel, useTargetChoice } from "./TargetPanel";
import { type RunFormInitial, useFormState } from "./useFormState";
import { useLaunch } from "./useLaunch";
import { useFit, useTargetInfo } from "./useTargetChecks";
import { WorkloadPanel } from "./WorkloadPanel";

export type { RunFormInitial } from "./useFormState";

/** `defaultCli`: how a terminal in this project reaches the default target (lib/targets/default-target.ts), for the command preview.
 *  `runnerCores`: the cores of the runner that will take the run (the runner processes' "auto"); null when no live runner says. */
export function RunForm({
  initial,
  targets,
  defaultCli = {},
  runnerCores = null,
}: {
  initial: RunFormInitial;
  targets: PublicTarget[];
  defaultCli?: CliTarget;
  runnerCores?: number | null;
}) {
  const form = useFormState(initial);
  const choice = useTargetChoice(targets, initial.targetId, initial.targetReason);
  const { targetId } = choice;
  const { info, recheck } = useTargetInfo(targetId);
  const formRef = useRef<HTMLFormElement>(null);
  const labels = useLabels();
  const launch = useLaunch({ form, targetId, formRef, onTargetRefused: recheck, labels });

  const { parsed } = form;
  const referenceId = form.preset?.referenceId ?? (form.presetId === "custom" ? initial.published?.id : undefined);
  const fit = useFit(referenceId, parsed.ok ? JSON.stringify(parsed.config) : null, targetId);
  const needed = parsed.ok ? connectionsNeeded(parsed.config) : null;
  const tooMany = info.state === "ok" && needed !== null && needed > info.info.usable;

  return (
    <form ref={formRef} className="run-form" noValidate onSubmit={launch.launch} aria-label="New run">
      <div className="stack form-main">
        <WorkloadPanel form={form} initial={initial} referenceId={referenceId} fit={fit} />
        <FieldSections form={form} runnerCores={runnerCores} />
        <LabelsPanel labels={labels} form={form} />
        {form.kind === "queued-workflows" && (
          <SweepQueues input={form.input} targetId={targetId} ready={parsed.ok} runSeconds={form.total} labels={labels.body} />
        )}
        <RepeatRuns input={form.input} targetId={targetId} ready={parsed.ok} runSeconds={form.total} labels={labels.body} />
        <SyncCommitLadder input={form.input} targetId={targetId} ready={parsed.ok} runSeconds={form.total} labels={labels.body} />
      </div>

      <aside className="stack form-side">
        <TargetPanel choice={choice} form={form} info={info} needed={needed} onRetry={recheck} />
        <LaunchPanel form={form} launch={launch} target={choice.target} targetId={targetId} tooMany={tooMany} defaultCli={defaultCli} />
      </aside>
    </form>
  );
}
