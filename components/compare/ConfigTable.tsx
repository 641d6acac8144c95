"use client";
// The config and environment table: differing fields highlighted, and a "differences only" toggle.
import type { Comparison } from "@/lib/compare/compare";
import { fmtAnnotated } from "@/lib/compare/format";
import type { DiffRow } from "@/lib/compare/rows";
import { ItemName } from "./ui";

function Rows({ rows, diffOnly, section, span }: { rows: DiffRow[]; diffOnly: boolean; section: string; span: number }) {
  const shown = diffOnly ? rows.filter((r) => r.differs) : rows;
  return (
    <>
      <tr className="group-row">
        <th colSpan={span} scope="colgroup">
          <span className="group-label">
            {section}
            {diffOnly && shown.length === 0 ? <span className="hint"> — no differences</span> : null}
          </span>
        </th>
      </tr>
      {shown.map((r) => (
        <tr key={r.key} className={r.differs ? "differs" : undefined} data-row={r.key} data-differs={r.differs ? "1" : "0"}>
          <th scope="row">
            {r.label}
            {r.differs && (
              <span className="differs-mark" title="differs between the items">
                {" "}
                ≠
              </span>
            )}
          </th>
          {r.values.map((v, i) => (
            <td key={i} className={v === null ? "muted" : undefined}>
              {fmtAnnotated(v, r.annotations[i])}
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

export function ConfigTable({ cmp, diffOnly, onDiffOnly }: { cmp: Comparison; diffOnly: boolean; onDiffOnly: (v: boolean) => void }) {
  const n = cmp.config.filter((r) => r.differs).length + cmp.env.filter((r) => r.differs).length;
  return (
    <section className="panel flush" aria-labelledby="config-h">
      <div className="section-head">
        <h2 id="config-h">Configuration and environment</h2>
        <span className="hint">{n === 0 ? "no field differs" : `${n} field${n > 1 ? "s differ" : " differs"} (highlighted)`}</span>
        <label className="row small toggle">
          <input type="checkbox" checked={diffOnly} onChange={(e) => onDiffOnly(e.target.checked)} data-testid="diff-toggle" /> Differences only
        </label>
      </div>
      <div className="table-wrap compare-table-wrap">
        <table className="data compact config-table" data-testid="config-table">
          <thead>
            <tr>
              <th scope="col">Field</th>
              {cmp.items.map((it, i) => (
                <th key={it.key} scope="col">
                  <ItemName item={it} index={i} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <Rows rows={cmp.config} diffOnly={diffOnly} section="Workload" span={cmp.items.length + 1} />
            <Rows rows={cmp.env} diffOnly={diffOnly} section="Environment and method" span={cmp.items.length + 1} />
          </tbody>
        </table>
      </div>
    </section>
  );
}
