// `npm run bench:polling -- [--target URL] [--duration 20s] [--backoff reference-effective|nominal|both] [--only queue|pubsub]
//                           [--reference-tool path/to/pg_msg_bench]`
// The load the readers' polling puts on the target, counted by the target itself, beside what the reference tool
// put on the same kind of target in the same configurations. Without --target it starts a private embedded
// Postgres (defaults, plus pg_stat_statements preloaded) in a temporary folder and removes it afterwards.
//
// Per configuration: pg_stat_database and pg_stat_statements are reset, the workload runs (no warm-up, so the
// server's counters and the runner's cover the same run), then the counters are read. pg_stat_statements gives
// the dequeue SELECTs and claims; when it is not available (not in shared_preload_libraries), those come from
// the runner's own counters (one claim latency sample per poll, measured window), and the output says so.
// With --reference-tool, the reference tool itself (its pg_msg_bench binary, built from its repository) runs
// each configuration first on the same target, counted the same way: the fairest yardstick, same machine.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbedded } from "../platform/embedded";
import { freePort } from "../lib/testing";
import { describeUrl } from "../lib/targets/pgurl";
import type { RunSummary } from "../lib/measurement/summary";
import { BACKOFF_MODES, definitionOf, toolWorkloads, WorkloadConfig, type BackoffMode, type WorkloadInput } from "../lib/workloads/config";
import { parseDuration } from "../runner/cli-args";
import { runWorkload } from "../runner/engine";
import { num } from "../runner/format";
import { benchArgs } from "./bench-args";
import { latencyOf, throughputOf } from "../lib/measurement/operations";

/**
 * What the reference tool (pg-queue-pubsub-benchmark at commit 8164907, built with go1.26.8) put on PostgreSQL 15
 * on a 2-core Linux machine in these two configurations, 20 s each, counted with pg_stat_statements and
 * pg_stat_database reset between runs. Source: the project's measurements of the reference tool's real behaviour
 * (docs/measurement.md, item 7).
 */
const REFERENCE = {
  /** Each run's length and readers (both configurations have 4 readers in all). */
  seconds: 20,
  readers: 4,
  queue: { dequeueSelectsPerMsg: 2.0, dequeueSelects: 21_026, emptyPolls: 10_680 },
  pubsub: { claims: 15_267, commitsPerMsgWritten: 0.39 },
};

// The reference tool's two workloads (lib/workloads/config.ts toolWorkloads: its queue, and its fan-out mode whose
// reads are per consumer group), in the configurations whose reference-tool figures are above.
/** The polling workloads this script measures. */
const TOOL = toolWorkloads();
type Mode = "queue" | "fanout";
/** A config of the reference tool's workloads: writers on a write throttle, readers polling. */
type PollingConfig = Extract<WorkloadConfig, { writers: number; throttleWritesPerSec: number }>;
const CONFIGS: Record<Mode, WorkloadInput> = {
  queue: { kind: TOOL.queue.kind, writers: 4, readers: 4, throttleWritesPerSec: 500 } as WorkloadInput,
  fanout: { kind: TOOL.fanout.kind, writers: 4, partitions: 2, consumerGroups: 2, writeBatch: 50, readBatch: 100, throttleWritesPerSec: 2000 } as WorkloadInput,
};
/** A mode's name on the command line and in the report: the workload's kind. */
const modeOf = (kind: string): Mode | undefined => (kind === TOOL.queue.kind ? "queue" : kind === TOOL.fanout.kind ? "fanout" : undefined);
/** Reader connections in all (every consumer group's): a run's clients less its writers. */
const readersOf = (c: PollingConfig) => definitionOf(c).clients(c) - c.writers;

/** The reference tool's flags for a config, from its workload's field table (importFlag) and its -mode. */
function toolFlags(c: WorkloadConfig): string[] {
  const d = definitionOf(c);
  const values = c as unknown as Record<string, unknown>;
  const flags = ["-mode", d.referenceMode!];
  for (const f of d.fields) {
    const v = values[f.name];
    if (!f.importFlag || v === undefined || f.importFlag === "report") continue;
    flags.push(`-${f.importFlag}${typeof v === "boolean" ? `=${v}` : ""}`);
    if (typeof v !== "boolean") flags.push(f.cli?.duration ? `${v}s` : String(v));
  }
  return flags;
}

const args = (argv: string[]) => benchArgs(argv, ["duration", "target", "only", "backoff", "reference-tool"]);

/** A private embedded Postgres with pg_stat_statements loaded; removed again by release(). */
async function privateTarget(): Promise<{ url: string; label: string; release: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-polling-"));
  chmodSync(dir, 0o755); // the postgres user must enter it when running as root
  const server = await startEmbedded({
    dataDir: dir,
    port: await freePort(),
    postgresFlags: ["-c", "shared_preload_libraries=pg_stat_statements"],
  });
  const url = server.url("pgbb_target");
  return {
    url,
    label: `a private embedded Postgres (${describeUrl(url)}, default settings + pg_stat_statements)`,
    release: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface ServerCounts {
  commits: number;
  rollbacks: number;
  /** null when pg_stat_statements is not available. */
  dequeueSelects: number | null;
  claims: number | null;
  /** Mean server time of a COMMIT (ms; WAL flush included), null without pg_stat_statements. */
  commitMs: number | null;
}

async function hasStatements(c: pg.Client): Promise<boolean> {
  try {
    await c.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    await c.query("SELECT 1 FROM pg_stat_statements LIMIT 1"); // fails unless preloaded
    return true;
  } catch {
    return false;
  }
}

async function resetCounters(c: pg.Client, statements: boolean) {
  await c.query("SELECT pg_stat_reset()");
  if (statements) await c.query("SELECT pg_stat_statements_reset()");
}

async function readCounters(c: pg.Client, statements: boolean): Promise<ServerCounts> {
  // Backends report their counters when they end (the run's clients have) or within a second; this session's own
  // reads are a handful against tens of thousands.
  await new Promise((r) => setTimeout(r, 1500));
  await c.query("SELECT pg_stat_clear_snapshot()");
  const d = await c.query<{ commits: string; rollbacks: string }>(
    "SELECT xact_commit AS commits, xact_rollback AS rollbacks FROM pg_stat_database WHERE datname = current_database()",
  );
  let dequeueSelects: number | null = null;
  let claims: number | null = null;
  let commitMs: number | null = null;
  if (statements) {
    const s = await c.query<{ dequeue: string; claims: string; commit_ms: number | null }>(
      `SELECT coalesce(sum(calls) FILTER (WHERE query LIKE '%FOR UPDATE SKIP LOCKED%'), 0) AS dequeue,
              coalesce(sum(calls) FILTER (WHERE query LIKE '%counter_tip%'), 0) AS claims,
              sum(total_exec_time) FILTER (WHERE upper(query) = 'COMMIT') / nullif(sum(calls) FILTER (WHERE upper(query) = 'COMMIT'), 0) AS commit_ms
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    dequeueSelects = Number(s.rows[0].dequeue);
    claims = Number(s.rows[0].claims);
    commitMs = s.rows[0].commit_ms === null ? null : Number(s.rows[0].commit_ms);
  }
  return { commits: Number(d.rows[0].commits), rollbacks: Number(d.rows[0].rollbacks), dequeueSelects, claims, commitMs };
}

function table(rows: string[][]) {
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  console.log(rows.map((r) => r.map((cell, c) => (c ? cell.padStart(w[c]) : cell.padEnd(w[c]))).join("   ")).join("\n"));
}

/** One side of the comparison: counted by the server, plus the client's own message counts. */
interface Measured {
  srv: ServerCounts;
  written: number;
  read: number;
  /** Polls by the client's own count (our claim samples), used when pg_stat_statements is absent. */
  clientPolls: number | null;
  readerSeconds: number;
}

function ours(s: RunSummary, srv: ServerCounts): Measured {
  const c = s.config as PollingConfig;
  return {
    srv,
    written: s.totals?.operations.write ?? throughputOf(s, "write")?.count ?? 0,
    read: s.totals?.operations.read ?? throughputOf(s, "read")?.count ?? 0,
    clientPolls: latencyOf(s, "claim")?.count ?? 0, // one claim sample per poll, empty ones included (measured window)
    readerSeconds: readersOf(c) * s.window.measuredSeconds,
  };
}

/** Runs the reference tool itself (a pg_msg_bench binary) on the same target with the same configuration. */
async function runReferenceTool(bin: string, config: PollingConfig, url: string, srvCounts: () => Promise<ServerCounts>): Promise<Measured> {
  const u = new URL(url);
  const out = execFileSync(
    bin,
    [
      ...toolFlags(config),
      "-host",
      u.hostname,
      "-port",
      u.port || "5432",
      "-db",
      u.pathname.slice(1),
      "-user",
      decodeURIComponent(u.username),
      "-password",
      decodeURIComponent(u.password),
    ],
    { encoding: "utf8", maxBuffer: 64 << 20 },
  );
  const total = (label: string) => Number(out.match(new RegExp(`^${label}: (\\d+)`, "m"))?.[1] ?? NaN);
  return {
    srv: await srvCounts(),
    written: total("Total Writes"),
    read: total("Total Reads"),
    clientPolls: null,
    readerSeconds: readersOf(config) * config.durationSeconds,
  };
}

function report(kind: Mode, us: Measured, tool: Measured | null) {
  const head = ["", "ours", ...(tool ? ["reference tool, here"] : []), "reference tool, measured elsewhere", "counted by"];
  const rows: string[][] = [head];
  const statements = us.srv.dequeueSelects !== null;
  const by = (server: string) => (statements ? server : "runner's counters (no pg_stat_statements)");
  const polls = (m: Measured) => (kind === "queue" ? m.srv.dequeueSelects : m.srv.claims) ?? m.clientPolls ?? NaN;
  const row = (label: string, f: (m: Measured) => string, published: string, source: string) =>
    rows.push([label, f(us), ...(tool ? [f(tool)] : []), published, source]);
  if (kind === "queue") {
    row(
      "dequeue SELECTs per message read",
      (m) => num(polls(m) / Math.max(m.read, 1), 2),
      num(REFERENCE.queue.dequeueSelectsPerMsg, 1),
      by("pg_stat_statements"),
    );
    row("dequeue SELECTs", (m) => num(polls(m), 0), num(REFERENCE.queue.dequeueSelects, 0), by("pg_stat_statements"));
    row("empty polls (ROLLBACKs)", (m) => num(m.srv.rollbacks, 0), num(REFERENCE.queue.emptyPolls, 0), "pg_stat_database xact_rollback");
  } else {
    row("claims", (m) => num(polls(m), 0), num(REFERENCE.pubsub.claims, 0), by("pg_stat_statements"));
    row(
      "commits per message written",
      (m) => num(m.srv.commits / Math.max(m.written, 1), 2),
      num(REFERENCE.pubsub.commitsPerMsgWritten, 2),
      "pg_stat_database xact_commit",
    );
  }
  row("messages written / read", (m) => `${num(m.written, 0)} / ${num(m.read, 0)}`, "", "the client, whole run");
  // What one poll costs sets how many fit in a run, whatever the back-off: reader-seconds per poll. A target
  // whose statements or COMMITs are slower fits fewer polls.
  const refPolls = kind === "queue" ? REFERENCE.queue.dequeueSelects : REFERENCE.pubsub.claims;
  row(
    "reader time per poll (ms)",
    (m) => num((1000 * m.readerSeconds) / Math.max(polls(m), 1), 2),
    num((1000 * REFERENCE.readers * REFERENCE.seconds) / refPolls, 2),
    "readers × seconds / polls",
  );
  if (us.srv.commitMs !== null)
    row("mean COMMIT on the server (ms)", (m) => (m.srv.commitMs === null ? "–" : num(m.srv.commitMs, 3)), "", "pg_stat_statements");
  table(rows);
}

async function main() {
  const a = args(process.argv.slice(2));
  const duration = parseDuration(a.duration ?? "20s");
  if (duration === null || duration < 1) throw new Error(`--duration expects a duration such as 20s or 1m, got "${a.duration}"`);
  if (a.only && !modeOf(a.only)) throw new Error(`--only expects ${TOOL.queue.kind} or ${TOOL.fanout.kind}, got "${a.only}"`);
  const modes: BackoffMode[] = a.backoff === "both" ? [...BACKOFF_MODES] : [(a.backoff ?? "reference-effective") as BackoffMode];
  if (!modes.every((m) => BACKOFF_MODES.includes(m))) throw new Error(`--backoff expects ${BACKOFF_MODES.join(", ")} or both, got "${a.backoff}"`);
  const kinds: Mode[] = a.only ? [modeOf(a.only)!] : ["queue", "fanout"];

  const target = a.target ? { url: a.target, label: describeUrl(a.target), release: async () => undefined } : await privateTarget();
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  let failed = false;
  try {
    const statements = await hasStatements(admin);
    console.log(`target: ${target.label}`);
    if (!statements)
      console.log(
        "pg_stat_statements is not available on the target (add it to shared_preload_libraries): statement counts come from the runner's own counters",
      );
    for (const kind of kinds) {
      for (const backoff of modes) {
        const config = WorkloadConfig.parse({ ...CONFIGS[kind], durationSeconds: duration, warmupSeconds: 0, backoff }) as PollingConfig;
        const shape = definitionOf(config).describe(config).join(", ");
        console.log(`\n=== ${config.kind}: ${shape}, ${backoff} back-off ===`);
        let tool: Measured | null = null;
        if (a["reference-tool"]) {
          await resetCounters(admin, statements);
          tool = await runReferenceTool(a["reference-tool"], config, target.url, () => readCounters(admin, statements));
        }
        await resetCounters(admin, statements);
        const summary = await runWorkload(config, target.url, { log: () => undefined });
        report(kind, ours(summary, await readCounters(admin, statements)), tool);
        const cpuPct = (100 * summary.manifest.runnerCpuSeconds) / summary.window.measuredSeconds;
        console.log(
          `ours: runner CPU ${num(cpuPct, 1)}% of one core; verification ${summary.verification.ok ? "OK" : `FAILED: ${summary.verification.problems.slice(0, 2).join("; ")}`}`,
        );
        failed ||= !summary.verification.ok;
      }
    }
  } finally {
    await admin.end();
    await target.release();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(`bench:polling: ${(err as Error).message}`);
  process.exit(1);
});
