import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CeilingPage } from "@/components/ceiling/CeilingPage";
import { ceilingPageData } from "@/lib/ceiling/page-data";
import { CeilingId } from "@/lib/api/ids";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  return { title: `Ceiling search ${id} · pg-broker-bench` };
}

/** /ceilings/<id>: one ceiling search, live while it runs. */
export default async function CeilingRoute({ params }: Props) {
  const { id } = await params;
  if (!CeilingId.safeParse(id).success) notFound();
  const data = await ceilingPageData(id);
  if (!data) notFound();
  return <CeilingPage initial={data.view} others={data.others} command={data.command} />;
}
