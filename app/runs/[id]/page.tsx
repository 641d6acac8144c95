import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunPage } from "@/components/run/RunPage";
import { defaultTargetForCli, type CliTarget } from "@/lib/targets/default-target";
import { getRun, samplesAfter } from "@/lib/runs/store";
import { toRunView, toSample } from "@/lib/runs/view";
import type { Sample } from "@/lib/measurement/sample";
import { DEFAULT_TARGET_ID, resolveTarget } from "@/lib/targets/store";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  return { title: `Run ${id} · pg-broker-bench` };
}

export default async function RunRoute({ params }: Props) {
  const { id } = await params;
  const row = await getRun(id);
  if (!row) notFound();
  const run = toRunView(row, { withSummary: true });
  // Everything stored so far is rendered at once; the live stream then continues after the last seq.
  const samples = (await samplesAfter(id)).map(toSample).filter((s): s is Sample => s !== null);
  return <RunPage initialRun={run} initialSamples={samples} cliTarget={await cliTargetOf(run.targetId, run.targetLabel)} />;
}

/**
 * How the reproducing command reaches the run's target: a saved target by its masked URL (the reader types
 * the password), the default one as `npm run bench` in this project finds it (lib/targets/default-target.ts). A run
 * whose target is gone (deleted, or a CLI run's own --target) gets a placeholder naming it, never the default.
 */
async function cliTargetOf(targetId: string | null, label: string): Promise<CliTarget> {
  if (targetId === DEFAULT_TARGET_ID) return defaultTargetForCli();
  const saved = targetId ? await resolveTarget(targetId) : null;
  return saved ? { targetUrl: saved.maskedUrl } : { unknownTarget: label };
}
