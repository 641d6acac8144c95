import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunPage } from "@/components/run/RunPage";
import { getRun, samplesAfter } from "@/lib/runs";
import { toRunView, toSample } from "@/lib/run-view";
import type { Sample } from "@/lib/sample";
import { resolveTarget } from "@/lib/targets";

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
  // The CLI line names a saved target by its masked URL (the reader types the password); the default needs none.
  const target = run.targetId && run.targetId !== "default" ? await resolveTarget(run.targetId) : null;
  return <RunPage initialRun={run} initialSamples={samples} targetMaskedUrl={target?.maskedUrl ?? null} />;
}
