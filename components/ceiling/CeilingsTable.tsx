// Every ceiling search in a table (/ceilings): each one's answer as its cell and its status, from the one
// answer its steps give (lib/ceiling/answer.ts), so the list never calls a search "completed" in green whose
// rate no longer run confirmed.
import Link from "next/link";
import { answerOfView, cellIn, goalLabelOf } from "@/lib/ceiling/answer";
import { searchUnit } from "@/lib/ceiling/rate";
import { searchKnobs, type CeilingView } from "@/lib/ceiling/view";

export function CeilingsTable({ rows }: { rows: CeilingView[] }) {
  return (
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
          {rows.map((c) => {
            const a = answerOfView(c);
            return (
              <tr key={c.id} data-outcome={a.kind}>
                <th scope="row">
                  <Link href={`/ceilings/${c.id}`} className="mono">
                    {c.id}
                  </Link>
                </th>
                <td>{c.workload}</td>
                <td className="num">{cellIn(a, searchUnit(c.workload, c.config))}</td>
                <td className="mono">
                  {goalLabelOf(c)} {c.settings.slo}
                </td>
                <td className="num">{c.steps.length}</td>
                <td className="small">{searchKnobs(c.config)}</td>
                <td>{c.targetLabel}</td>
                <td>
                  <span className={`badge ${a.badge}`}>{a.status}</span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
