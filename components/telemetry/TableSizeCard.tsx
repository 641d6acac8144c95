"use client";
// The run's tables' size and their indexes' over the run (beside the other telemetry charts, ./TelemetryCharts.tsx),
// each autovacuum run of those tables marked where a reading counted it: how a long run's tables grow and what each
// vacuum did to them (issue 32). Sizes are read without waiting on a lock (runner/telemetry/sizes.ts), so a
// reading a lock refused repeats the one before. Shown only when the readings have sizes (runs since issue 32).
import { useMemo } from "react";
import { Line, ReferenceLine, YAxis } from "recharts";
import { bytesText } from "@/lib/telemetry/replication-words";
import type { TelemetrySample } from "@/lib/telemetry/shape";
import { ChartCard } from "../charts/ChartCard";
import { type RunTimeline, TimeFrame } from "../charts/TimeFrame";

/** A reading at its place on the run's timeline (./TelemetryCharts.tsx's points). */
type Point = { t: number; telemetry: TelemetrySample };
type Row = Record<string, number | null>;

const fmtT = (sec: number) => sec.toFixed(1);
const dash = (v: number | null | undefined, f: (x: number) => string) => (v === null || v === undefined ? "–" : f(v));

/** One row per reading: table and index bytes (null where not read), and the autovacuum runs counted so far. */
function rowsOf(points: Point[]): Row[] {
  let runs = 0;
  return points.map(({ t, telemetry }) => {
    runs += telemetry.tables?.autovacuumRuns ?? 0;
    return { t: +t.toFixed(2), tableBytes: telemetry.tables?.tableBytes ?? null, indexBytes: telemetry.tables?.indexBytes ?? null, autovacuums: runs };
  });
}

export function TableSizeCard({ frame }: { frame: RunTimeline & { points: Point[] } }) {
  const rows = useMemo(() => rowsOf(frame.points), [frame.points]);
  if (!rows.some((r) => r.tableBytes !== null)) return null;
  const runs = rows.at(-1)?.autovacuums ?? 0;
  // Where a reading counted an autovacuum run (one mark per reading, however many tables it vacuumed).
  const marks = frame.points.filter((p) => (p.telemetry.tables?.autovacuumRuns ?? 0) > 0).map((p) => +p.t.toFixed(2));
  const line = (key: string, name: string, color: string) => (
    <Line key={key} type="linear" dataKey={key} name={name} stroke={color} dot={false} isAnimationActive={false} strokeWidth={1.6} connectNulls={false} />
  );
  return (
    <ChartCard
      testId="chart-table-size"
      title="The run's tables' size"
      hint={`table and index bytes (pg_table_size, pg_indexes_size); ${runs.toLocaleString("en-US")} autovacuum ${runs === 1 ? "run" : "runs"} of these tables over the run, marked`}
      table={() => ({
        columns: ["t (s)", "table bytes", "index bytes", "autovacuum runs so far"],
        rows: rows.map((r) => [fmtT(r.t ?? 0), dash(r.tableBytes, bytesText), dash(r.indexBytes, bytesText), String(r.autovacuums)]),
        note: "Sizes as last read before each reading (they are read every 5 s); a size reading a lock refused (a table locked by another session) leaves the one before.",
      })}
    >
      {(aria) => (
        <TimeFrame
          timeline={{ ...frame, rows }}
          aria={aria}
          height={220}
          yAxis={<YAxis fontSize={11} width={64} tickFormatter={(v: number) => bytesText(v)} />}
          value={(v) => bytesText(Number(v))}
        >
          {line("tableBytes", "tables", "#2457c5")}
          {line("indexBytes", "indexes", "#d9480f")}
          {marks.map((x) => (
            <ReferenceLine key={x} x={x} stroke="#2b8a3e" strokeDasharray="3 3" ifOverflow="extendDomain" />
          ))}
        </TimeFrame>
      )}
    </ChartCard>
  );
}
