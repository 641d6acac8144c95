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
          for where it comes from, or for why a cell is — (not offered, or not measured by that workload).
        </span>
      </div>
      {table.notSameRate && (
        <div className="alert warn" role="alert" data-testid="not-same-rate">
          {table.notSameRate}
        </div>
      )}
      <div className="table-wrap compare-table-wrap">
        <table className="data compact sustained-table">
          <thead>
            <tr>
              <th scope="col" rowSpan={2}>
                Run
              </th>
              {headGroups().map((h) =>
                h.group ? (
                  <th key={h.group} scope="colgroup" colSpan={h.span} className="num">
                    {h.group}
                  </th>
                ) : (
                  <th key={h.key} scope="col" rowSpan={2} className={h.key === "settings" ? undefined : "num"}>
                    {h.label}
                  </th>
                ),
              )}
            </tr>
            <tr>
              {SUSTAINED_COLUMNS.filter((c) => c.group).map((c) => (
                <th key={c.key} scope="col" className="num">
                  {c.short}
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
                  <td
                    key={c.key}
                    className={c.key === "settings" ? "small" : "num"}
                    title={c.title}
                    data-testid={`sustained-${c.key}-${r.key}`}
                    data-value={c.value ?? ""}
                  >
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

/** The first head row: each ungrouped column, then each latency group once with the columns it spans. */
function headGroups(): { key: string; label: string; group?: string; span: number }[] {
  const out: { key: string; label: string; group?: string; span: number }[] = [];
  for (const c of SUSTAINED_COLUMNS) {
    const last = out[out.length - 1];
    if (c.group && last?.group === c.group) last.span++;
    else out.push({ key: c.key, label: c.label, group: c.group, span: 1 });
  }
  return out;
}
