import type { Metadata } from "next";
import Link from "next/link";
import { listSearches } from "@/lib/ceiling/store";
import { toCeilingView } from "@/lib/ceiling/view";
import { CeilingsTable } from "@/components/ceiling/CeilingsTable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Ceilings · pg-broker-bench" };

/** /ceilings: every ceiling search, newest first, with its ceiling and goal. */
export default async function CeilingsRoute() {
  const rows = (await listSearches()).map(toCeilingView);
  return (
    <div className="stack">
      <div>
        <h1>Ceilings</h1>
        <p className="muted" style={{ margin: 0 }}>
          The highest rate each search found sustained under its latency goal, and whether a longer run confirmed it. Start one from{" "}
          <Link href="/runs/new">New run</Link> → Find the ceiling, or <code>npm run bench -- ceiling</code>.
        </p>
      </div>
      {rows.length === 0 ? <p className="muted">No ceiling search yet.</p> : <CeilingsTable rows={rows} />}
    </div>
  );
}
