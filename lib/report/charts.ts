// The charts of a run's exported report (components/report/), as data: each chart's x values (seconds since the load
// started), its series and its shaded spans. The same series the run page draws (components/charts/RunCharts.tsx and
// components/telemetry/), read from the samples by the same functions (throughputOf, latencyOf, perReading, waitMix),
// with the same rules: a rate of an interval too short to be one (isRateSample) is left out, a second without a value
// is a gap, never 0; nothing is recomputed or averaged here.
import { groupsOf, latencyMetrics, latencyOf, measureOf, metricModel, rateLabel, rateOperations, throughputOf } from "../measurement/operations";
import { isRateSample, type Sample } from "../measurement/sample";
import { INSTANT_KINDS, type Phase, type PhaseKind, phaseEnd } from "../phases/shape";
import { fmtMs, fmtRate } from "../runs/format";
import { bytesRate, WAIT_GROUPS, waitMix } from "../telemetry/report";
import { bytesText } from "../telemetry/replication-words";
import { perReading, type TelemetrySample } from "../telemetry/shape";
import { countWords } from "../words";

export interface ChartSeries {
  name: string;
  color: string;
  /** One a point of the chart's `xs`; null: no value in that second (a gap). */
  values: (number | null)[];
  /** Joined across gaps (the rate lines, as the run page draws them). */
  connect?: boolean;
  width?: number;
  /** A dot at each value (a ceiling search's steps); with `width: 0`, dots only. */
  dots?: boolean;
  dashed?: boolean;
}

export interface ChartBand {
  from: number;
  to: number;
  fill: string;
  label?: string;
  text?: string;
}

export interface ChartSpec {
  id: string;
  title: string;
  hint?: string;
  xs: number[];
  /** The x axis' end: the run's planned load length, or its last sample when it went longer. */
  xMax: number;
  series: ChartSeries[];
  bands: ChartBand[];
  yFormat: (v: number) => string;
  height?: number;
  /** Areas stacked on each other (the connections by wait event), drawn as steps. */
  stacked?: boolean;
  /** Dashed vertical marks (autovacuum runs). */
  marks?: number[];
  /** The x axis' tick labels; default seconds ("12s"), the run's time axis. */
  xFormat?: (v: number) => string;
}

const PCT = [
  { key: "p50", label: "p50", color: "#2b8a3e" },
  { key: "p95", label: "p95", color: "#2457c5" },
  { key: "p99", label: "p99", color: "#d9480f" },
  { key: "max", label: "max", color: "#868e96" },
] as const;
const RATE_COLORS = ["#2457c5", "#2b8a3e", "#d9480f", "#9c36b5", "#0b7285"];
const COLORS = ["#2457c5", "#d9480f", "#2b8a3e", "#9c36b5", "#c92a2a", "#0b7285", "#e67700", "#5c7cfa", "#a61e4d", "#495057"];
/** components/charts/PhaseBands.tsx's colours, kept equal by the report test. */
export const REPORT_PHASE_COLOURS: Record<PhaseKind, string> = {
  "hold-xmin": "#f59e0b",
  "long-reader": "#8b5cf6",
  "pause-workers": "#0ea5e9",
  "kill-backend": "#ef4444",
  "restart-target": "#be123c",
};
const dec = (v: number, d = 1) => v.toLocaleString("en-US", { maximumFractionDigits: d });

/** The spans every chart shades, as the run page's (RunCharts spansOf, PhaseBands): phases, lost samples, warm-up, drain. */
export function bandsOf(samples: Sample[], warmupSeconds: number, phases: readonly Phase[]): ChartBand[] {
  const bands: ChartBand[] = phases.map((p) => ({
    from: p.startSec,
    to: INSTANT_KINDS.includes(p.kind) ? p.startSec + 1 : phaseEnd(p),
    fill: REPORT_PHASE_COLOURS[p.kind],
    label: p.kind,
  }));
  samples.forEach((s, i) => {
    if (i > 0 && s.seq !== samples[i - 1].seq + 1) {
      const n = s.seq - samples[i - 1].seq - 1;
      bands.push({
        from: samples[i - 1].metrics.elapsedSec,
        to: s.metrics.elapsedSec - s.metrics.intervalSec,
        fill: "#e03131",
        label: `${countWords(n, "sample")} lost`,
        text: "#c92a2a",
      });
    }
  });
  if (warmupSeconds > 0) bands.push({ from: 0, to: warmupSeconds, fill: "#868e96", label: "warm-up" });
  const drain = samples.filter((s) => s.phase === "draining" || s.phase === "verifying");
  if (drain.length > 0)
    bands.push({
      from: drain[0].metrics.elapsedSec - drain[0].metrics.intervalSec,
      to: drain[drain.length - 1].metrics.elapsedSec,
      fill: "#f59f00",
      label: "drain",
      text: "#9a6700",
    });
  return bands;
}

/** Every chart of the run page that its samples can fill: throughput, each charted latency, backlog, then the telemetry's. */
export function runChartSpecs(opts: {
  samples: Sample[];
  workload: string;
  warmupSeconds: number;
  loadSeconds: number;
  phases: readonly Phase[];
}): ChartSpec[] {
  const { samples, workload } = opts;
  const model = metricModel(workload);
  if (!model || samples.length === 0) return [];
  const xs = samples.map((s) => +s.metrics.elapsedSec.toFixed(2));
  const xMax = Math.max(opts.loadSeconds, Math.ceil(xs[xs.length - 1] ?? 0));
  const bands = bandsOf(samples, opts.warmupSeconds, opts.phases);
  const frame = { xs, xMax, bands };
  const groups = [...new Set(samples.flatMap((s) => groupsOf(s.metrics).map((g) => g.group)))];
  const ops = rateOperations(model);
  const out: ChartSpec[] = [
    {
      ...frame,
      id: "throughput",
      title: "Throughput",
      hint: `${ops[0]?.unit ?? "item"}/s`,
      height: 240,
      yFormat: fmtRate,
      series: ops.map((o, i) => ({
        name: rateLabel(o, groups.length),
        color: RATE_COLORS[i % RATE_COLORS.length],
        width: 2,
        connect: true,
        values: samples.map((s) => (isRateSample(s.metrics) ? (throughputOf(s.metrics, o.name)?.perSecond ?? null) : null)),
      })),
    },
  ];
  for (const m of latencyMetrics(model).filter((l) => l.chart))
    out.push({
      ...frame,
      id: `latency-${m.name}`,
      title: `${m.chart!.title} (ms)`,
      hint: m.chart!.hint,
      yFormat: (v) => fmtMs(v),
      series: PCT.map((p) => ({
        name: p.label,
        color: p.color,
        width: p.key === "max" ? 1 : 1.6,
        values: samples.map((s) => latencyOf(s.metrics, m.name)?.[p.key] ?? null),
      })),
    });
  if (model.backlog && groups.length > 0)
    out.push({
      ...frame,
      id: "backlog",
      title: model.backlog.label,
      hint: `${model.backlog.what}, ${model.backlog.place} (${model.backlog.unit})`,
      yFormat: fmtRate,
      series: groups.map((g, i) => ({
        name: g,
        color: COLORS[i % COLORS.length],
        values: samples.map((s) => measureOf(groupsOf(s.metrics).find((x) => x.group === g) ?? {}, "backlog") ?? null),
      })),
    });
  return [...out, ...telemetrySpecs(samples, xMax, bands)];
}

/** The telemetry's charts (components/telemetry/TelemetryCharts.tsx): one point a reading, on the run's time axis. */
function telemetrySpecs(samples: Sample[], xMax: number, bands: ChartBand[]): ChartSpec[] {
  const points = samples.flatMap((s) =>
    s.metrics.telemetry && isRateSample(s.metrics.telemetry) ? [{ t: s.metrics.elapsedSec, tel: s.metrics.telemetry }] : [],
  );
  if (points.length === 0) return [];
  const xs = points.map((p) => +p.t.toFixed(2));
  const of = (f: (s: TelemetrySample) => number | null | undefined) => points.map((p) => f(p.tel) ?? null);
  const frame = { xs, xMax, bands };
  const mixes = points.map((p) => {
    const b = perReading(p.tel);
    return b ? { idle: b.run.idle + b.run.idleInTx, mix: waitMix(b.runWaits) } : null;
  });
  const out: ChartSpec[] = [
    {
      ...frame,
      id: "waits",
      title: "The run's connections",
      hint: "waiting on the client (idle) or active on the server, by wait event",
      stacked: true,
      yFormat: (v) => dec(v),
      series: [
        { name: "idle (waiting on the client)", color: "#adb5bd", values: mixes.map((m) => m?.idle ?? null) },
        ...WAIT_GROUPS.map((g) => ({ name: g.label, color: g.color, values: mixes.map((m) => m?.mix[g.key] ?? null) })),
      ],
    },
    {
      ...frame,
      id: "wal",
      title: "WAL",
      hint: "bytes written per second",
      yFormat: (v) => bytesRate(v).replace("/s", ""),
      series: [{ name: "WAL bytes/s", color: "#d9480f", values: of((s) => s.wal?.bytesPerSec) }],
    },
  ];
  const sync = of((s) => s.wal?.syncMsPerSec);
  if (sync.some((v) => v !== null))
    out.push({
      ...frame,
      id: "wal-sync",
      title: "WAL sync time",
      hint: "ms per second",
      yFormat: (v) => dec(v, 2),
      series: [{ name: "sync ms/s", color: "#2457c5", values: sync }],
    });
  out.push(
    {
      ...frame,
      id: "commits",
      title: "Transactions",
      hint: "commits and rollbacks per second, the whole database",
      yFormat: fmtRate,
      series: [
        { name: "commits/s", color: "#2b8a3e", values: of((s) => s.db?.commitsPerSec) },
        { name: "rollbacks/s", color: "#c92a2a", values: of((s) => s.db?.rollbacksPerSec) },
      ],
    },
    {
      ...frame,
      id: "dead-tuples",
      title: "The run's tables",
      hint: "dead and live tuples (pg_stat_user_tables)",
      yFormat: fmtRate,
      series: [
        { name: "dead tuples", color: "#c92a2a", values: of((s) => s.tables?.deadTuples) },
        { name: "live tuples", color: "#868e96", values: of((s) => s.tables?.liveTuples) },
      ],
    },
  );
  const tableBytes = of((s) => s.tables?.tableBytes);
  if (tableBytes.some((v) => v !== null))
    out.push({
      ...frame,
      id: "table-size",
      title: "The run's tables' size",
      hint: "table and index bytes (pg_table_size, pg_indexes_size); autovacuum runs marked",
      yFormat: bytesText,
      marks: points.filter((p) => (p.tel.tables?.autovacuumRuns ?? 0) > 0).map((p) => +p.t.toFixed(2)),
      series: [
        { name: "tables", color: "#2457c5", values: tableBytes },
        { name: "indexes", color: "#d9480f", values: of((s) => s.tables?.indexBytes) },
      ],
    });
  const serverCpu = of((s) => (s.host ? s.host.serverCpuCores * 100 : null));
  const hasHost = serverCpu.some((v) => v !== null);
  out.push({
    ...frame,
    id: "cpu",
    title: "CPU",
    hint: hasHost ? "% of one core: Postgres' processes, the whole host, the runner" : "% of one core: the runner only (the server host was not visible)",
    yFormat: (v) => `${dec(v)}%`,
    series: [
      ...(hasHost
        ? [
            { name: "Postgres", color: "#d9480f", values: serverCpu },
            { name: "host", color: "#868e96", values: of((s) => (s.host ? s.host.cpuBusyPct * s.host.cores : null)) },
          ]
        : []),
      { name: "runner", color: "#2457c5", values: of((s) => s.client?.cpuPct) },
    ],
  });
  const standbys = [...new Set(points.flatMap((p) => p.tel.replication?.standbys.map((s) => s.name) ?? []))].sort();
  if (standbys.length > 0)
    out.push({
      ...frame,
      id: "replication",
      title: "Standbys' replay lag",
      hint: "bytes of WAL each standby has not replayed yet",
      yFormat: bytesText,
      series: standbys.map((n, i) => ({
        name: n,
        color: COLORS[i % COLORS.length],
        values: of((s) => s.replication?.standbys.find((x) => x.name === n)?.replayLagBytes),
      })),
    });
  return out;
}
