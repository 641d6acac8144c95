// The synchronous commit ladder in words and cells: every surface (the ladder's page, the CLI's table, the
// benchmark script) formats a level's figures here. Browser-safe.
import { fmtFigure } from "../compare/ab";
import { fmtPercent } from "../runs/format";
import type { LadderLevel, LadderStats, LevelFigure, StandbyLag } from "./stats";

/** A figure's 95 % interval as "[1.10–1.40]" in its unit's digits; "" without one. */
export function fmtCi(f: LevelFigure, unit: "ms" | "rate" | "share"): string {
  if (!f.ci) return "";
  const v = (x: number) =>
    unit === "ms" ? fmtFigure(x, "ms").replace(/ ms$/, "") : unit === "share" ? fmtPercent(x * 100).replace(/ %$/, "") : fmtFigure(x, "rate");
  return `[${v(Math.max(0, f.ci.low))}–${v(f.ci.high)}]`;
}

/** A figure pooled over the level's repeats, with its interval: "1.23 ms [1.10–1.40]", "4,210/s", "12 %". */
export function fmtLevelFigure(f: LevelFigure | null, unit: "ms" | "rate" | "share"): string {
  if (!f || f.pooled === null) return "—";
  const v = unit === "ms" ? fmtFigure(f.pooled, "ms") : unit === "share" ? fmtPercent(f.pooled * 100) : fmtFigure(f.pooled, "rate");
  const ci = fmtCi(f, unit);
  return ci ? `${v} ${ci}` : v;
}

/** One standby's lag at a level: "pg2 (sync): replay p50 0.21–0.30 ms, max 1.20 ms; flush max 0.90 ms; write max 0.40 ms". */
export function fmtStandbyLag(s: StandbyLag): string {
  const ms = (v: number) => fmtFigure(v, "ms");
  const range = (r: StandbyLag["replayMs"]) =>
    r ? `p50 ${r.p50Low === r.p50High ? ms(r.p50Low) : `${ms(r.p50Low).replace(/ ms$/, "")}–${ms(r.p50High)}`}, max ${ms(r.max)}` : "caught up";
  const lags = [`replay ${range(s.replayMs)}`, s.flushMs ? `flush max ${ms(s.flushMs.max)}` : null, s.writeMs ? `write max ${ms(s.writeMs.max)}` : null];
  return `${s.name} (${s.syncStates.join(" → ") || "state unknown"}): ${lags.filter(Boolean).join("; ")}`;
}

/** The 2016 row beside a level: "3,329 TPS (on, synchronous replica)", or "—". */
export function fmtReference(l: LadderLevel): string {
  const r = l.reference;
  if (!r) return "—";
  const replica = r.replica ? `, ${r.replica} replica` : "";
  return `${r.tps.toLocaleString("en-US")} TPS (${r.level}${replica})`;
}

/** Ours and the 2016 ladder's throughput relative to the base level: "0.71 / 0.54". */
export const fmtRelative = (l: LadderLevel): string =>
  l.relative
    ? `${l.relative.ours === null ? "—" : l.relative.ours.toFixed(2)} / ${l.relative.reference === null ? "—" : l.relative.reference.toFixed(2)}`
    : "—";

/** The table's head and a row of cells per level (the CLI and the page read the same cells). */
export function ladderCells(st: LadderStats): { head: string[]; rows: string[][] } {
  const head = [
    "level",
    "runs",
    ...st.measures.flatMap((m) => [`${m.label} p50`, `${m.label} p99`]),
    st.rateUnit,
    "SyncRep wait",
    "commit waits for",
    ...(st.base ? [`vs ${st.base}: ours / 2016`] : []),
    "2016 ladder",
  ];
  const rows = st.levels.map((l) => [
    l.level,
    String(l.runIds.length),
    ...l.latencies.flatMap((x) => [fmtLevelFigure(x.p50, "ms"), fmtLevelFigure(x.p99, "ms")]),
    fmtLevelFigure(l.throughput, "rate"),
    st.standbys === "none" ? "no standbys" : fmtLevelFigure(l.syncRepShare, "share"),
    l.waitsFor,
    ...(st.base ? [fmtRelative(l)] : []),
    fmtReference(l),
  ]);
  return { head, rows };
}

/** The ladder as text (the CLI, the benchmark script): the table, each level's standbys, the notes, the 2016 ladder's caveats. */
export function ladderText(st: LadderStats): string {
  const { head, rows } = ladderCells(st);
  const all = [head, ...rows];
  const w = head.map((_, c) => Math.max(...all.map((row) => row[c].length)));
  const table = all.map((row) => row.map((cell, c) => (c ? cell.padStart(w[c]) : cell.padEnd(w[c]))).join("  ")).join("\n");
  const lags =
    st.standbys === "some"
      ? st.levels.flatMap((l) => [`lag at ${l.level}:`, ...l.standbys.map((s) => `  ${fmtStandbyLag(s)}`)])
      : ["lag per standby: no standbys"];
  return [
    `synchronous commit ladder (${st.workload}): ${st.repeats} repeat${st.repeats === 1 ? "" : "s"} of each level, order ${st.order}`,
    "Latencies pooled over each level's repeats (merged histograms); [low–high]: the 95 % interval of the repeats' own figures.",
    table,
    ...lags,
    ...st.notes.map((n) => `- ${n}`),
    `2016 ladder: ${st.reference.label}, ${st.reference.url}; ${st.reference.caveats.join("; ")}.`,
  ].join("\n");
}
