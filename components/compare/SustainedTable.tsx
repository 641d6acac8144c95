// "Which sustained what": one row per compared run of a queue-like workload, with what it was offered and consumed,
// whether it kept up, and its latency from the scheduled enqueue to the job's start and end (lib/compare/
// sustained-table.ts). Every number is the run's own; a "—" says why on hover, as every number says where it is from.
import { type SustainedTable as Table, SUSTAINED_COLUMNS, sustainedCells } from "@/lib/compare/sustained-table";

export function SustainedTable({ table }: { table: Table }) {
  return (
    <section className="panel flush" aria-labelledby="sustained-h" data-testid="sustained-table">
      <div className="section-head">
        <h2 id="sustained-h">Which sustained what</h2>
        <span className="hint">
          Each run at the rate it was offered: what it consumed over its measured window, whether that reached 95% of the offer (the verdict&apos;s
          &quot;met&quot;), and each job&apos;s time from its scheduled enqueue to its start and to its end, from the run&apos;s merged histograms. Hover a cell
          for where it comes from; — = the workload does not measure it.
        </span>
      </div>
      {table.notSameRate && (
        <div className="alert warn" role="alert" data-testid="not-same-rate">
          {table.notSameRate}
        </div>
      )}
      <div className="table-wrap compare-table-wrap">
        <table className="data compact">
          <thead>
            <tr>
              <th scope="col">Run</th>
              {SUSTAINED_COLUMNS.map(([key, label]) => (
                <th key={key} scope="col" className={key === "settings" ? undefined : "num"}>
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((r) => (
              <tr key={r.key} data-key={r.key} data-workload={r.workload}>
                <th scope="row">
                  <a href={r.href}>{r.label}</a>
                </th>
                {sustainedCells(r).map((c) => (
                  <td key={c.key} className={c.key === "settings" ? "small" : "num"} title={c.title} data-testid={`sustained-${c.key}-${r.key}`}>
                    {c.text}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {table.leftOut.length > 0 && <p className="hint small">Not in this table (not runs of a queue-like workload): {table.leftOut.join(", ")}.</p>}
    </section>
  );
}
