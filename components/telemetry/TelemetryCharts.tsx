"use client";
// What the server was doing, second by second, beside the client's charts and on the same time axis (the
// caller passes its x axis and its warm-up/drain shading): the run's connections by what they waited on, WAL
// rate and sync time, commits, the run's tables' dead tuples and size (./TableSizeCard.tsx), CPU (the server's processes, the host, the
// runner), and the standbys' lag when the target had any (./ReplicationCharts.tsx). Drawn from the telemetry each
// sample carries; a run recorded without telemetry shows nothing here.
import { useMemo, type ReactNode } from "react";
import { Area, Line, YAxis } from "recharts";
import { bytesRate, WAIT_GROUPS, waitMix } from "@/lib/telemetry/report";
import { perReading, type TelemetryInfo, type TelemetrySample } from "@/lib/telemetry/shape";
import { fmtRate } from "@/lib/runs/format";
import { type ChartAria, ChartCard } from "../charts/ChartCard";
import { type RunTimeline, TimeFrame } from "../charts/TimeFrame";
import { ReplicationCard } from "./ReplicationCharts";
import { TableSizeCard } from "./TableSizeCard";

/** One sample's telemetry at its place on the run's time axis (seconds since the load started). */
export interface TelemetryPoint {
  t: number;
  phase: string;
  telemetry: TelemetrySample;
}

type Row = Record<string, number | null>;

const fmtT = (sec: number) => sec.toFixed(1);
const dash = (v: number | undefined, f: (x: number) => string) => (v === undefined ? "–" : f(v));
const dec = (v: number, d = 1) => v.toLocaleString("en-US", { maximumFractionDigits: d });

/** What every chart here shares: the run's timeline (its rows here, one a telemetry point) and the points. */
interface Frame extends RunTimeline {
  points: TelemetryPoint[];
  rows: Row[];
}

/** One line of a chart here: thin, straight, not animated, a gap where a second has no reading. */
const line = (key: string, name: string, color: string, extra: Record<string, unknown> = {}) => (
  <Line
    key={key}
    type="linear"
    dataKey={key}
    name={name}
    stroke={color}
    dot={false}
    isAnimationActive={false}
    strokeWidth={1.6}
    connectNulls={false}
    {...extra}
  />
);

function useRows(points: TelemetryPoint[]): Row[] {
  return useMemo(
    () =>
      points.map(({ t, telemetry: s }): Row => {
        // Backends per reading: a sample sums the wait sampler's several readings of its second.
        // (None in its interval: a gap, not zero connections.)
        const b = perReading(s);
        const mix = b && waitMix(b.runWaits);
        const row: Row = { t: +t.toFixed(2), idle: b ? b.run.idle + b.run.idleInTx : null };
        for (const g of WAIT_GROUPS) row[g.key] = mix ? mix[g.key] : null;
        row.walBytes = s.wal?.bytesPerSec ?? null;
        row.walSyncMs = s.wal?.syncMsPerSec ?? null;
        row.walSyncs = s.wal?.syncsPerSec ?? null;
        row.commits = s.db?.commitsPerSec ?? null;
        row.rollbacks = s.db?.rollbacksPerSec ?? null;
        row.dead = s.tables?.deadTuples ?? null;
        row.live = s.tables?.liveTuples ?? null;
        // CPU in % of one core for all three lines, so they share an axis: the host's busy share × its cores.
        row.serverCpu = s.host ? s.host.serverCpuCores * 100 : null;
        row.hostCpu = s.host ? s.host.cpuBusyPct * s.host.cores : null;
        row.runnerCpu = s.client?.cpuPct ?? null;
        return row;
      }),
    [points],
  );
}

/** The telemetry's own cost, measured in every reading. */
function costOf(points: TelemetryPoint[]) {
  const seconds = points.reduce((a, p) => a + p.telemetry.intervalSec, 0);
  return {
    statementsPerSec: seconds > 0 ? points.reduce((a, p) => a + p.telemetry.overhead.statements, 0) / seconds : 0,
    msMean: points.reduce((a, p) => a + p.telemetry.overhead.ms, 0) / points.length,
    msMax: Math.max(...points.map((p) => p.telemetry.overhead.ms)),
  };
}

export function TelemetryCharts({
  points,
  info,
  xAxis,
  shading,
}: {
  points: TelemetryPoint[];
  /** What could not be measured (a finished run's summary has it; live, the charts say what is absent). */
  info?: TelemetryInfo;
  xAxis: ReactNode;
  shading: (labels: boolean) => ReactNode;
}) {
  const rows = useRows(points);
  if (points.length === 0) return null;
  const cost = costOf(points);
  const frame: Frame = { points, rows, xAxis, shading };
  return (
    <section className="stack" aria-labelledby="telemetry-heading" data-testid="telemetry-charts">
      <h2 className="chart-group-title" id="telemetry-heading">
        What the server was doing{" "}
        <span className="hint" data-testid="telemetry-cost">
          sampled once a second on a connection of its own; its cost: {dec(cost.statementsPerSec)} statements/s on the target in one round trip,{" "}
          {dec(cost.msMean, 2)} ms per reading (max {dec(cost.msMax, 2)} ms)
          {points.some((p) => p.telemetry.tables?.tableBytes !== undefined) && "; the tables' sizes: two round trips more every 5 s"}
        </span>
      </h2>
      <div className="grid grid-2">
        <WaitsCard frame={frame} />
        <WalCard frame={frame} />
        <CommitsCard frame={frame} />
        <TablesCard frame={frame} />
        <TableSizeCard frame={frame} />
        <CpuCard frame={frame} info={info} />
        <ReplicationCard frame={frame} synchronousCommit={info?.synchronousCommit} />
      </div>
    </section>
  );
}

function WaitsCard({ frame }: { frame: Frame }) {
  return (
    <ChartCard
      testId="chart-waits"
      title="The run's connections"
      hint="waiting on the client (idle) or active on the server, by wait event"
      table={() => ({
        columns: ["t (s)", "idle", ...WAIT_GROUPS.map((g) => g.label), "top wait events"],
        rows: frame.points.map(({ t, telemetry: s }) => {
          const per = perReading(s);
          if (!per) return [fmtT(t), "–", ...WAIT_GROUPS.map(() => "–"), "no reading in this interval"];
          const mix = waitMix(per.runWaits);
          const top = Object.entries(per.runWaits)
            .sort((a, b) => b[1] - a[1])
            .slice(0, 3)
            .map(([k, v]) => `${k} ${+v.toFixed(1)}`)
            .join(", ");
          return [fmtT(t), per.run.idle + per.run.idleInTx, ...WAIT_GROUPS.map((g) => mix[g.key]), top || "–"];
        }),
        note: "Connections in each state at the sample; a backend active with no wait event is on CPU.",
      })}
    >
      {(aria) => (
        <TimeFrame timeline={frame} aria={aria} kind="area" height={220} yAxis={<YAxis fontSize={11} width={40} allowDecimals={false} />}>
          <Area type="step" dataKey="idle" name="idle (waiting on the client)" stackId="w" stroke="#ced4da" fill="#e9ecef" isAnimationActive={false} />
          {WAIT_GROUPS.map((g) => (
            <Area
              key={g.key}
              type="step"
              dataKey={g.key}
              name={g.label}
              stackId="w"
              stroke={g.color}
              fill={g.color}
              fillOpacity={0.55}
              isAnimationActive={false}
            />
          ))}
        </TimeFrame>
      )}
    </ChartCard>
  );
}

function WalCard({ frame }: { frame: Frame }) {
  const hasSyncTime = frame.rows.some((r) => r.walSyncMs !== null);
  return (
    <ChartCard
      testId="chart-wal"
      title="WAL"
      hint={hasSyncTime ? "bytes written per second; sync time, ms per second" : "bytes written per second (sync time needs track_wal_io_timing)"}
      table={() => ({
        columns: ["t (s)", "WAL bytes/s", "syncs/s", "sync ms/s"],
        rows: frame.points.map(({ t, telemetry: s }) => [
          fmtT(t),
          dash(s.wal?.bytesPerSec, bytesRate),
          dash(s.wal?.syncsPerSec, (x) => dec(x)),
          dash(s.wal?.syncMsPerSec, (x) => dec(x, 2)),
        ]),
      })}
    >
      {(aria) => (
        <TimeFrame
          timeline={frame}
          aria={aria}
          height={220}
          yAxis={
            <>
              <YAxis yAxisId="bytes" fontSize={11} width={64} tickFormatter={(v: number) => bytesRate(v).replace("/s", "")} />
              {hasSyncTime && <YAxis yAxisId="ms" orientation="right" fontSize={11} width={44} />}
            </>
          }
        >
          {line("walBytes", "WAL bytes/s", "#d9480f", { yAxisId: "bytes" })}
          {hasSyncTime && line("walSyncMs", "sync ms/s", "#2457c5", { yAxisId: "ms" })}
        </TimeFrame>
      )}
    </ChartCard>
  );
}

/** A chart of counts per second with one axis in fmtRate's words (transactions, tuples). */
function CountsFrame({ frame, aria, children }: { frame: Frame; aria: ChartAria; children: ReactNode }) {
  return (
    <TimeFrame timeline={frame} aria={aria} height={220} yAxis={<YAxis fontSize={11} width={64} tickFormatter={(v: number) => fmtRate(v)} />}>
      {children}
    </TimeFrame>
  );
}

function CommitsCard({ frame }: { frame: Frame }) {
  return (
    <ChartCard
      testId="chart-commits"
      title="Transactions"
      hint="commits and rollbacks per second, the whole database"
      table={() => ({
        columns: ["t (s)", "commits/s", "rollbacks/s"],
        rows: frame.points.map(({ t, telemetry: s }) => [fmtT(t), dash(s.db?.commitsPerSec, fmtRate), dash(s.db?.rollbacksPerSec, fmtRate)]),
      })}
    >
      {(aria) => (
        <CountsFrame frame={frame} aria={aria}>
          {line("commits", "commits/s", "#2b8a3e")}
          {line("rollbacks", "rollbacks/s", "#c92a2a")}
        </CountsFrame>
      )}
    </ChartCard>
  );
}

function TablesCard({ frame }: { frame: Frame }) {
  return (
    <ChartCard
      testId="chart-dead-tuples"
      title="The run's tables"
      hint="dead and live tuples (pg_stat_user_tables)"
      table={() => ({
        columns: ["t (s)", "dead tuples", "live tuples", "autovacuum runs"],
        rows: frame.points.map(({ t, telemetry: s }) => [
          fmtT(t),
          dash(s.tables?.deadTuples, fmtRate),
          dash(s.tables?.liveTuples, fmtRate),
          dash(s.tables?.autovacuumRuns, String),
        ]),
      })}
    >
      {(aria) => (
        <CountsFrame frame={frame} aria={aria}>
          {line("dead", "dead tuples", "#c92a2a")}
          {line("live", "live tuples", "#868e96")}
        </CountsFrame>
      )}
    </ChartCard>
  );
}

function CpuCard({ frame, info }: { frame: Frame; info?: TelemetryInfo }) {
  const hasHost = frame.rows.some((r) => r.serverCpu !== null);
  const hostReason = info && !info.host.available ? info.host.reason : "the server host is not visible (a remote target)";
  return (
    <ChartCard
      testId="chart-cpu"
      title="CPU"
      hint={hasHost ? "% of one core: Postgres' processes, the whole host, the runner" : `% of one core: the runner only; ${hostReason}`}
      table={() => ({
        columns: ["t (s)", "Postgres %", "host %", "runner %"],
        rows: frame.rows.map((r) => [
          fmtT(r.t ?? 0),
          dash(r.serverCpu ?? undefined, dec),
          dash(r.hostCpu ?? undefined, dec),
          dash(r.runnerCpu ?? undefined, dec),
        ]),
        note: "Percent of one core (200% = two cores busy); the host's line counts every process on it, the runner included.",
      })}
    >
      {(aria) => (
        <TimeFrame timeline={frame} aria={aria} height={220} yAxis={<YAxis fontSize={11} width={44} />} value={(v) => `${dec(Number(v))}%`}>
          {hasHost && line("serverCpu", "Postgres", "#d9480f")}
          {hasHost && line("hostCpu", "host", "#868e96")}
          {line("runnerCpu", "runner", "#2457c5")}
        </TimeFrame>
      )}
    </ChartCard>
  );
}
