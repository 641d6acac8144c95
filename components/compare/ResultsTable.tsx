"use client";
// The results table: each declared rate in its own unit (write and read msg/s, row/s, req/s) and MiB/s, latency
// p50 … max for write, read and e2e, one column per item, with the change against the baseline the user picks (a radio in each column head), and
// beside each delta what is known to move either value (a reference's start-up burst, a study's HTTP latencies): by
// its short name and number in the cell, its whole text once under the table with the rows it moves.
import type { Comparison } from "@/lib/compare/compare";
import { delta } from "@/lib/compare/deltas";
import { fmtDelta, fmtValue } from "@/lib/compare/format";
import { effectKey, effectNotes, effectTag } from "@/lib/compare/effects";
import { ItemName, SourceBadge } from "./ui";

/** A known effect in a cell: its short name and the number of its note under the table (its whole text on hover). */
function Effect({ text, n, prefix = "" }: { text: string; n: number | undefined; prefix?: string }) {
  return (
    <li title={text}>
      {prefix}
      {effectTag(text)} {n !== undefined && <a href={`#effect-${n}`}>[{n}]</a>}
    </li>
  );
}

export function ResultsTable({ cmp, onBaseline }: { cmp: Comparison; onBaseline: (key: string) => void }) {
  const { items } = cmp;
  const rows = cmp.results.filter((r) => r.values.some((v) => v !== null));
  const effects = effectNotes(cmp);
  const numberOf = new Map(effects.map((e) => [effectKey(e.item, e.text), e.n]));
  let lastGroup = "";
  return (
    <section className="panel flush" aria-labelledby="results-h">
      <div className="section-head">
        <h2 id="results-h">Results</h2>
        <span className="hint">
          Change against the baseline: within ±50 % in percent, beyond it as a factor (×2.9 larger, ÷2.9 smaller); green is better, red worse. — = not published
          or not measured.
        </span>
      </div>
      <div className="table-wrap compare-table-wrap">
        <table className="data compact results-table" data-testid="results-table">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              {items.map((it, i) => (
                <th key={it.key} scope="col" className={`num item-head${i === cmp.baseline ? " is-baseline" : ""}`} data-key={it.key}>
                  <ItemName item={it} index={i} />
                  <div className="item-head-meta">
                    <SourceBadge badge={it.badge} />
                    <label className="baseline-pick">
                      <input
                        type="radio"
                        name="baseline"
                        checked={i === cmp.baseline}
                        onChange={() => onBaseline(it.key)}
                        aria-label={`Use ${it.label} as the baseline`}
                      />
                      baseline
                    </label>
                  </div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const groupHead = r.group !== lastGroup;
              lastGroup = r.group;
              const base = cmp.baseline >= 0 ? r.values[cmp.baseline] : null;
              return [
                groupHead ? (
                  <tr key={`${r.key}-g`} className="group-row">
                    <th colSpan={items.length + 1} scope="colgroup">
                      <span className="group-label">
                        {r.group}{" "}
                        <span className="hint">
                          (
                          {r.better === "neither"
                            ? "the same window's server telemetry: why the rows above differ, neither better nor worse"
                            : r.unit === "ms"
                              ? "lower is better"
                              : `${r.group === "Throughput" ? "higher is better" : ""}`}
                          )
                        </span>
                      </span>
                    </th>
                  </tr>
                ) : null,
                <tr key={r.key} data-row={r.key}>
                  <th scope="row">{r.label}</th>
                  {r.values.map((v, i) => {
                    const d = i === cmp.baseline ? null : delta(v, base, r.better);
                    // What is known to move this value, or the baseline it is measured against: beside the delta.
                    const own = v === null ? [] : r.effects[i];
                    const baseEffects = d && cmp.baseline >= 0 ? r.effects[cmp.baseline] : [];
                    return (
                      <td
                        key={items[i].key}
                        className={`num${i === cmp.baseline ? " is-baseline" : ""}`}
                        data-testid={`result-${r.key}-${items[i].key}`}
                        data-value={v ?? ""}
                      >
                        <span className="v">{fmtValue(v, r.unit)}</span>
                        {d && (
                          <span className={`delta ${d.better === null ? "" : d.better ? "better" : "worse"}`} data-testid={`delta-${r.key}-${items[i].key}`}>
                            {fmtDelta(d)}
                          </span>
                        )}
                        {own.length + baseEffects.length > 0 && (
                          <ul className="effects" data-testid={`effects-${r.key}-${items[i].key}`}>
                            {own.map((t) => (
                              <Effect key={`o${t}`} text={t} n={numberOf.get(effectKey(i, t))} />
                            ))}
                            {baseEffects.map((t) => (
                              <Effect key={`b${t}`} text={t} n={numberOf.get(effectKey(cmp.baseline, t))} prefix="baseline: " />
                            ))}
                          </ul>
                        )}
                      </td>
                    );
                  })}
                </tr>,
              ];
            })}
          </tbody>
        </table>
      </div>
      {effects.length > 0 && (
        <div className="effects-notes">
          <h3 className="small">Known effects beside the deltas</h3>
          <ol data-testid="effects-notes">
            {effects.map((e) => (
              <li key={e.n} id={`effect-${e.n}`} value={e.n} data-testid={`effect-note-${e.n}`}>
                {items[e.item].label}: {e.text} <span className="hint">({e.rows.join(", ")})</span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
