import type { Metadata } from "next";
import Link from "next/link";
import { listSearches } from "@/lib/ceiling/store";
import { searchKnobs, toCeilingView } from "@/lib/ceiling/view";
import { fmtRate, STATUS_BADGE } from "@/lib/runs/format";
import { searchUnit } from "@/lib/ceiling/rate";
import { perSecond } from "@/lib/words";

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
          The highest rate each search found sustained under its latency goal. Start one from <Link href="/runs/new">New run</Link> → Find the ceiling, or{" "}
          <code>npm run bench -- ceiling</code>.
        </p>
      </div>
      {rows.length === 0 ? (
        <p className="muted">No ceiling search yet.</p>
      ) : (
        <div className="table-wrap panel flush">
          <table className="data" data-testid="ceilings-table">
            <thead>
              <tr>
                <th scope="col">search</th>
                <th scope="col">workload</th>
                <th scope="col" className="num">
                  ceiling
                </th>
                <th scope="col">goal</th>
                <th scope="col" className="num">
                  steps
                </th>
                <th scope="col">config</th>
                <th scope="col">target</th>
                <th scope="col">status</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    <Link href={`/ceilings/${c.id}`} className="mono">
                      {c.id}
                    </Link>
                  </th>
                  <td>{c.workload}</td>
                  <td className="num">
                    {c.result?.ceiling == null
                      ? "–"
                      : `${c.result.bracket.high === null ? "≥ " : ""}${fmtRate(c.result.ceiling)} ${perSecond(searchUnit(c.workload, c.config))}`}
                    {/* Searches stored before confirmations have no such field: nothing is said of them. */}
                    {c.result?.ceiling != null && c.result.confirmation !== undefined && (
                      <span className="small muted"> {c.result.confirmation === null ? "not confirmed" : "confirmed"}</span>
                    )}
                  </td>
                  <td className="mono">
                    {c.steps[0]?.goal.label ?? c.settings.metric ?? ""} {c.settings.slo}
                  </td>
                  <td className="num">{c.steps.length}</td>
                  <td className="small">{searchKnobs(c.config)}</td>
                  <td>{c.targetLabel}</td>
                  <td>
                    <span className={`badge ${STATUS_BADGE[c.status] ?? ""}`}>{c.status}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
