"use client";
// The standbys' lag on the run's timeline (beside the other telemetry charts, ./TelemetryCharts.tsx): one line per
// standby, replay lag solid and flush lag dashed, in bytes or in time, its sync states in the legend and a mark
// where a standby stopped, started or changed sync state; a replication stall and a replay falling behind shaded;
// under it the events in words (lib/telemetry/replication-words.ts). Shown only when the run had standbys.
import { useMemo, useState } from "react";
import { Line, ReferenceArea, ReferenceLine, YAxis } from "recharts";
import { fmtLatency } from "@/lib/runs/numbers";
import { replicationOnTimeline } from "@/lib/telemetry/replication";
import type { ReplicationEvent } from "@/lib/telemetry/replication-shape";
import { bytesText, eventWords, LAG_TIME_NULL } from "@/lib/telemetry/replication-words";
import { ChartCard } from "../charts/ChartCard";
import { type RunTimeline, TimeFrame } from "../charts/TimeFrame";
import type { TelemetrySample } from "@/lib/telemetry/shape";

/** A reading at its place on the run's timeline (./TelemetryCharts.tsx's points). */
type Point = { t: number; telemetry: TelemetrySample };

const COLORS = ["#2457c5", "#d9480f", "#2b8a3e", "#9c36b5", "#0b7285", "#e67700"];
type Unit = "bytes" | "time";
type Row = Record<string, number | null>;

const fmtT = (sec: number) => sec.toFixed(1);
const dash = (v: number | null | undefined, f: (x: number) => string) => (v === null || v === undefined ? "–" : f(v));

/** Every standby any reading saw, in name order. */
const standbysOf = (points: Point[]) => [...new Set(points.flatMap((p) => p.telemetry.replication?.standbys.map((s) => s.name) ?? []))].sort();

/** A series' key: by the standby's place, not its name (a name may hold dots, which Recharts reads as a path). */
const keyOf = (i: number, kind: "replay" | "flush", unit: Unit) => `s${i}_${kind}_${unit}`;

/** One row per reading: each standby's replay and flush lag in bytes and in ms (null: not connected, or no lag time). */
function rowsOf(points: Point[], names: string[]): Row[] {
  return points.map(({ t, telemetry }) => {
    const row: Row = { t: +t.toFixed(2) };
    names.forEach((n, i) => {
      const s = telemetry.replication?.standbys.find((x) => x.name === n);
      row[keyOf(i, "replay", "bytes")] = s?.replayLagBytes ?? null;
      row[keyOf(i, "flush", "bytes")] = s?.flushLagBytes ?? null;
      row[keyOf(i, "replay", "time")] = s?.replayLagMs ?? null;
      row[keyOf(i, "flush", "time")] = s?.flushLagMs ?? null;
    });
    return row;
  });
}

/** A change of a standby as a short mark on the chart: "pg2 stopped", "pg3 → sync". */
function markOf(e: ReplicationEvent): { x: number; label: string } | undefined {
  if (e.kind === "stopped") return { x: e.atSec, label: `${e.standby} stopped` };
  if (e.kind === "started") return { x: e.atSec, label: `${e.standby} back (${e.syncState})` };
  if (e.kind === "sync-state") return { x: e.atSec, label: `${e.standby} → ${e.to}` };
  return undefined;
}

export function ReplicationCard({
  frame,
  synchronousCommit,
}: {
  frame: RunTimeline & { points: Point[] };
  /** synchronous_commit as the run's sessions started with it (a finished run's telemetry info). */
  synchronousCommit?: string;
}) {
  const [unit, setUnit] = useState<Unit>("bytes");
  const names = useMemo(() => standbysOf(frame.points), [frame.points]);
  const rows = useMemo(() => rowsOf(frame.points, names), [frame.points, names]);
  const replication = useMemo(() => replicationOnTimeline(frame.points), [frame.points]);
  if (!replication || names.length === 0) return null;
  const states = new Map(replication.standbys.map((s) => [s.name, s.syncStates.join(" → ")]));
  const fmt = (v: number) => (unit === "bytes" ? bytesText(v) : fmtLatency(v));
  const timeline = { ...frame, rows };
  return (
    <ChartCard
      testId="chart-replication"
      title="Replication lag per standby"
      hint={`${unit === "bytes" ? "bytes of WAL" : "time"} behind the primary: replay solid, flush dashed; ${replication.synchronousStandbyNames ? `synchronous_standby_names '${replication.synchronousStandbyNames}'` : "no synchronous standbys named"}${synchronousCommit ? `, synchronous_commit ${synchronousCommit}` : ""}${unit === "time" ? "; a gap: no lag time (caught up and idle)" : ""}`}
      controls={
        <div className="segmented" role="group" aria-label="Replication lag unit">
          {(["bytes", "time"] as const).map((u) => (
            <button key={u} type="button" aria-pressed={unit === u} onClick={() => setUnit(u)}>
              {u}
            </button>
          ))}
        </div>
      }
      table={() => ({
        columns: ["t (s)", ...names.flatMap((n) => [`${n} state`, `${n} write / flush / replay lag`, `${n} write / flush / replay lag (time)`])],
        textColumns: 1 + names.length * 3,
        note: `–: not connected; in the time column, ${LAG_TIME_NULL}.`,
        rows: frame.points.map(({ t, telemetry }) => [
          fmtT(t),
          ...names.flatMap((n) => {
            const s = telemetry.replication?.standbys.find((x) => x.name === n);
            if (!s) return ["not connected", "–", "–"];
            const lags = (xs: (number | null)[], f: (x: number) => string) => xs.map((x) => dash(x, f)).join(" / ");
            return [
              `${s.state}, ${s.syncState}`,
              lags([s.writeLagBytes, s.flushLagBytes, s.replayLagBytes], bytesText),
              lags([s.writeLagMs, s.flushLagMs, s.replayLagMs], fmtLatency),
            ];
          }),
        ]),
      })}
    >
      {(aria) => (
        <>
          <TimeFrame
            timeline={timeline}
            aria={aria}
            height={240}
            yAxis={<YAxis fontSize={11} width={64} tickFormatter={(v: number) => fmt(v)} />}
            value={(v) => fmt(Number(v))}
          >
            {replication.events.map((e, i) =>
              e.kind === "replication-stall" || e.kind === "replay-behind" ? (
                <ReferenceArea
                  key={`area-${i}`}
                  x1={e.fromSec}
                  x2={e.toSec}
                  fill={e.kind === "replication-stall" ? "#e03131" : "#f59f00"}
                  fillOpacity={0.12}
                  ifOverflow="hidden"
                />
              ) : null,
            )}
            {replication.events
              .map(markOf)
              .map((m, i) =>
                m ? (
                  <ReferenceLine
                    key={`mark-${i}`}
                    x={m.x}
                    stroke="#868e96"
                    strokeDasharray="3 3"
                    label={{ value: m.label, position: "insideTopLeft", fontSize: 10, fill: "#495057" }}
                  />
                ) : null,
              )}
            {names.flatMap((n, i) =>
              (["replay", "flush"] as const).map((kind) => (
                <Line
                  key={`${n}:${kind}`}
                  type="linear"
                  dataKey={keyOf(i, kind, unit)}
                  name={`${n} ${kind} (${states.get(n) ?? "?"})`}
                  stroke={COLORS[i % COLORS.length]}
                  strokeDasharray={kind === "flush" ? "5 3" : undefined}
                  strokeWidth={kind === "flush" ? 1.2 : 1.8}
                  dot={false}
                  isAnimationActive={false}
                  connectNulls={false}
                />
              )),
            )}
          </TimeFrame>
          {replication.events.length > 0 && (
            <ul className="small" data-testid="replication-events" aria-label="Replication events, in seconds since the load started">
              {replication.events.map((e, i) => (
                <li key={i}>{eventWords(e)}</li>
              ))}
            </ul>
          )}
        </>
      )}
    </ChartCard>
  );
}
