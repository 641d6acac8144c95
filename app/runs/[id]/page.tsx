import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunPage } from "@/components/run/RunPage";
import { getRun, samplesAfter } from "@/lib/runs/store";
import { toRunView, toSample } from "@/lib/runs/view";
import { cliTargetOf } from "@/lib/runs/cli-target";
import type { Sample } from "@/lib/measurement/sample";

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
