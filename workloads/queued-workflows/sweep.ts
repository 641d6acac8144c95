// The queues sweep of the CLI: `npm run bench -- queued-workflows --queues 1,2,4,8 …` runs one ordinary run per
// queue count, back to back (each saved with --save like any run, each its own --json file), then prints the
// completion rate against the number of queues: the curve the study published only as a chart.
import { latencyOf, throughputOf } from "../../lib/measurement/operations";
import { msText, num } from "../../lib/number-text";
import { paceMark } from "../../lib/telemetry/pace-mark";
import type { CliSweep, SweepPlan, SweepPoint } from "../runtime";
import { parseQueueCounts } from "./definition";

const QUEUES_FLAG = /^--?queues(?:=(.*))?$/;

/**
 * Whether `argv` asks for a sweep: a queued-workflows command whose -queues value is a comma-separated list.
 * Each run's argv is the same with that one value; `--json FILE` becomes FILE with `-queues-Q` before its
 * extension, so the runs do not overwrite each other's summary.
 */
export function queuesSweep(argv: string[]): SweepPlan {
  let at = -1;
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const m = QUEUES_FLAG.exec(argv[i]);
    if (!m) continue;
    at = i;
    value = m[1] ?? argv[i + 1];
    break;
  }
  if (at < 0 || value === undefined || !value.includes(",")) return { kind: "none" };
  const parsed = parseQueueCounts(value);
  if (!parsed.ok) return { kind: "error", message: `-queues ${value}: ${parsed.message}` };
  const { counts } = parsed;
  const inline = argv[at].includes("=");
  const jsonAt = argv.findIndex((a) => /^--?json(?:=|$)/.test(a));
  return {
    kind: "sweep",
    flag: "queues",
    counts,
    argvFor: (q) => {
      const out = [...argv];
      if (inline) out[at] = `--queues=${q}`;
      else out[at + 1] = String(q);
      if (jsonAt >= 0) {
        const eq = out[jsonAt].indexOf("=");
        const file = eq >= 0 ? out[jsonAt].slice(eq + 1) : out[jsonAt + 1];
        if (file) {
          const named = file.replace(/(\.[^./\\]+)?$/, (ext) => `-queues-${q}${ext}`);
          if (eq >= 0) out[jsonAt] = `${out[jsonAt].slice(0, eq + 1)}${named}`;
          else out[jsonAt + 1] = named;
        }
      }
      return out;
    },
  };
}

/**
 * The sweep's table and its curve: completion rate per queue count, a bar each, beside the published figures. A
 * point whose enqueuers missed the rate asked is marked MISSED, and a line under the table says by how much and
 * who fell behind (its curve is then the enqueuers' limit, not the queues').
 */
export function sweepText(points: SweepPoint[]): string {
  const rate = (p: SweepPoint) => (p.summary && throughputOf(p.summary, "read")?.perSecond) ?? 0;
  const top = Math.max(1, ...points.map(rate));
  const rows = [["queues", "enqueue/s", "completion/s", "e2e p50 ms", "e2e p99 ms", "left at end", "rate asked", "run", ""]];
  const missed: string[] = [];
  for (const p of points) {
    const s = p.summary;
    const mark = s ? paceMark(s) : null;
    if (mark?.startsWith("missed")) missed.push(`queues ${p.value}: ${mark}`);
    const bar = "█".repeat(Math.round((rate(p) / top) * 40));
    rows.push([
      String(p.value),
      s ? num(throughputOf(s, "write")?.perSecond ?? 0, 0) : "–",
      s ? num(throughputOf(s, "read")?.perSecond ?? 0, 0) : "–",
      msText(s && latencyOf(s, "e2e")?.p50),
      msText(s && latencyOf(s, "e2e")?.p99),
      s?.totals ? num(s.totals.measures.unreadAtEnd ?? 0, 0) : "–",
      mark === null ? "–" : mark === "met" ? "met" : "MISSED",
      p.error ? "FAILED" : (p.runId ?? "ok"),
      p.error ? p.error.slice(0, 60) : bar,
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const lines = rows.map((r) =>
    r
      .map((cell, c) => (c === 0 || c >= 7 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
      .join("  ")
      .trimEnd(),
  );
  return [
    "=== completion rate against the number of queues ===",
    ...lines,
    ...(missed.length ? ["", "Points that missed the rate asked (their completion rate is the enqueuers' limit, not the queues'):", ...missed] : []),
    "",
    "Published (DBOS, 2.17): 12.1K workflows/s on one queue, 30.6K over many queues or partitions, on RDS db.m7i.24xlarge",
    "(96 vCPU, 384 GB, io2 120K IOPS, PostgreSQL 16 defaults) from a c7i.48xlarge client; their per-queue-count figures",
    "exist only as a chart, and no latency was published. A rate is sustained only when little is left at the end.",
  ].join("\n");
}

/** The CLI's sweep over queue counts, as the runner registry (workloads/runners.ts) lists it. */
export const queuesCliSweep: CliSweep = { plan: queuesSweep, text: sweepText };
