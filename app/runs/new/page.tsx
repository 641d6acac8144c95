import type { Metadata } from "next";
import { RunForm, type RunFormInitial } from "@/components/run-form/RunForm";
import { defaultTargetForCli } from "@/lib/targets/default-target";
import { getRun } from "@/lib/runs/store";
import { toRunView } from "@/lib/runs/view";
import { listTargets } from "@/lib/targets/store";
import { replicatedPick } from "@/lib/targets/replicated";
import { publishedById, publishedConfig, publishedLabel } from "@/lib/references/published";
import { presetById, WorkloadConfig } from "@/lib/workloads/config";
import { prisma } from "@/lib/db";
import { runnerCores } from "@/lib/status/runners";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New run · pg-broker-bench" };

type Props = { searchParams: Promise<{ preset?: string; from?: string; published?: string }> };

/** /runs/new[?preset=<id>][?from=<run id>][?published=<id>]: the form, starting from a preset, a copy of an
 *  earlier run, or another study's published result (its config, lib/references/published.ts). */
export default async function NewRunRoute({ searchParams }: Props) {
  const q = await searchParams;
  const targets = await listTargets();
  // "auto" runner processes: the cores of the runner that will take the run (null: no live runner says).
  const cores = await runnerCores(prisma()).catch(() => null);
  let initial: RunFormInitial = { config: WorkloadConfig.parse(presetById("pubsub-defaults")!.config), presetId: "pubsub-defaults", targetId: "default" };
  let note: string | null = null;
  const preset = q.preset ? presetById(q.preset) : undefined;
  // A three-node published scenario runs on the embedded replicated target when the app offers one, saying why.
  if (preset) initial = { config: WorkloadConfig.parse(preset.config), presetId: preset.id, targetId: "default", ...replicatedPick(preset.referenceId) };
  else if (q.preset) note = `There is no preset "${q.preset}"; starting from the pub/sub defaults.`;
  if (q.published) {
    const p = publishedById(q.published);
    const cfg = p ? publishedConfig(p) : null;
    if (p && cfg?.ok) initial = { config: cfg.config, presetId: null, targetId: "default", published: { id: p.id, label: publishedLabel(p) } };
    else note = cfg && !cfg.ok ? `Cannot start from it: ${cfg.error}.` : `There is no published result "${q.published}"; starting from the pub/sub defaults.`;
  }
  if (q.from) {
    const run = await getRun(q.from);
    const cfg = run ? WorkloadConfig.safeParse(run.config) : null;
    if (run && cfg?.success) {
      const targetId = toRunView(run).targetId;
      initial = { config: cfg.data, presetId: null, targetId: targetId ?? "default", fromRunId: run.id };
      if (targetId === null) note = `Run ${run.id}'s target "${run.targetLabel}" has been deleted since; pick a target below.`;
    } else
      note = run
        ? `Run ${q.from}'s config cannot be read by this version; starting from the defaults.`
        : `There is no run "${q.from}"; starting from the defaults.`;
  }
  return (
    <div className="stack">
      <div>
        <h1>New run</h1>
        <p className="muted" style={{ margin: 0 }}>
          Pick a workload and a preset, adjust any knob, choose the Postgres to load, and launch. The run page shows it live.
        </p>
      </div>
      {note && <div className="alert warn">{note}</div>}
      <RunForm initial={initial} targets={targets} defaultCli={defaultTargetForCli()} runnerCores={cores} />
    </div>
  );
}
