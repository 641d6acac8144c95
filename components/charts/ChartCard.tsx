"use client";
// One chart in a panel: a heading that names the chart (the chart's SVG points at its title with aria-labelledby and
// at its hint with aria-describedby, so a screen reader announces "Throughput" rather than an anonymous
// "application"), and under it the same data as a table, folded by default. The table is built only while it is
// open: a long run has thousands of samples.
import { useId, useState, type ReactNode } from "react";

export interface ChartTableData {
  /** Column headers; the first column holds each row's header (time, item, …). */
  columns: string[];
  /** How many leading columns hold text (left-aligned); the rest hold numbers. Default 1. */
  textColumns?: number;
  rows: (string | number)[][];
  /** What a reader needs to read the table: units, what "–" means. */
  note?: string;
}

export interface ChartAria {
  "aria-labelledby": string;
  "aria-describedby"?: string;
}

export function ChartCard({
  title,
  hint,
  level = 3,
  testId,
  controls,
  table,
  children,
}: {
  title: ReactNode;
  hint?: ReactNode;
  /** Heading level: the card sits under an h1 (level 2) or under a section's h2 (level 3). */
  level?: 2 | 3;
  testId?: string;
  /** Buttons beside the heading (unit toggles). */
  controls?: ReactNode;
  /** The chart's data; called only while the table is shown. */
  table: () => ChartTableData;
  /** The chart, given the attributes that name and describe it (spread them on the chart). */
  children: (aria: ChartAria) => ReactNode;
}) {
  const id = useId();
  const Heading = level === 2 ? "h2" : "h3";
  const heading = (
    <Heading className="chart-title">
      <span id={id}>{title}</span>{" "}
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </Heading>
  );
  const aria: ChartAria = { "aria-labelledby": id, ...(hint ? { "aria-describedby": `${id}-hint` } : {}) };
  return (
    <div className="chart-card panel" data-testid={testId}>
      {controls ? (
        <div className="spread">
          {heading}
          {controls}
        </div>
      ) : (
        heading
      )}
      {children(aria)}
      <ChartTable labelledBy={id} table={table} />
    </div>
  );
}

function ChartTable({ labelledBy, table }: { labelledBy: string; table: () => ChartTableData }) {
  const [open, setOpen] = useState(false);
  const data = open ? table() : null;
  const text = data?.textColumns ?? 1;
  return (
    <details className="chart-data" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Show data as table</summary>
      {data && (
        <>
          {data.note && <p className="hint">{data.note}</p>}
          <div className="table-wrap chart-data-wrap">
            <table className="data compact" aria-labelledby={labelledBy} data-testid="chart-data">
              <thead>
                <tr>
                  {data.columns.map((c, i) => (
                    <th key={i} scope="col" className={i >= text ? "num" : undefined}>
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.rows.map((r, i) => (
                  <tr key={i}>
                    {r.map((v, j) =>
                      j === 0 ? (
                        <th key={j} scope="row">
                          {v}
                        </th>
                      ) : (
                        <td key={j} className={j >= text ? "num" : undefined}>
                          {v}
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </details>
  );
}
