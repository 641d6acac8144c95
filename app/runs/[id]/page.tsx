import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunPage } from "@/components/run/RunPage";
import { defaultTargetForCli, type CliTarget, replicatedTargetForCli } from "@/lib/targets/default-target";
import { getRun, samplesAfter } from "@/lib/runs/store";
import { type RunView, toRunView, toSample } from "@/lib/runs/view";
import type { Sample } from "@/lib/measurement/sample";
import { DEFAULT_TARGET_ID, resolveTarget } from "@/lib/targets/store";
import { REPLICATED_TARGET_ID, shapeOfCluster } from "@/lib/targets/replicated-shape";
import { replicatedSettings } from "@/lib/targets/replicated";

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
  return <RunPage initialRun={run} initialSamples={samples} cliTarget={await cliTargetOf(run)} />;
}

/**
 * How the reproducing command reaches the run's target: a saved target by its masked URL (the reader types
 * the password), the default one as `npm run bench` in this project finds it (lib/targets/default-target.ts), an
 * embedded replicated one by the shape it recorded (--replicas N), or this app's while it has not finished. A run
 * whose target is gone (deleted, or a CLI run's own --target) gets a placeholder naming it, never the default.
 */
async function cliTargetOf(run: RunView): Promise<CliTarget> {
  const { targetId } = run;
  if (targetId === DEFAULT_TARGET_ID) return defaultTargetForCli();
  const cluster = run.summary?.manifest.cluster;
  if (cluster) return replicatedTargetForCli(shapeOfCluster(cluster));
  const replicated = targetId === REPLICATED_TARGET_ID ? replicatedSettings() : null;
  if (replicated) return replicatedTargetForCli(replicated);
  const saved = targetId ? await resolveTarget(targetId) : null;
  return saved ? { targetUrl: saved.maskedUrl } : { unknownTarget: run.targetLabel };
}
