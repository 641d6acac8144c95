import type { Metadata } from "next";
import { CompareView } from "@/components/compare/CompareView";
import { parseViewState } from "@/lib/compare/view-state";
import { listChoices, loadComparables } from "@/lib/compare/load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Compare · pg-broker-bench" };

export default async function ComparePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const view = parseViewState(await searchParams);
  const [{ items, problems }, choices] = await Promise.all([loadComparables(view.ids), listChoices()]);
  return <CompareView key={view.ids.join(",")} initial={view} items={items} problems={problems} choices={choices} />;
}
