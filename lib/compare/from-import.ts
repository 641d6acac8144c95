// The Comparable of an imported output of the reference tool (./build.ts): its triple of percentiles and its effects.
import { type ImportedLatency, ImportedSummary } from "../imports/summary";
import { mibPerSec } from "../measurement/metrics";
import type { Comparable, Facts, Pcts } from "./comparable";
import { configCellsOf } from "./rows";
import { NONE, NotComparable, TOOL_BACKOFF, TOOL_CLOCK, toolEffects, triplePoints, UNKNOWN_SERVER } from "./build-parts";

export interface ImportRecord {
  id: string;
  label: string;
  createdAt: Date | string;
  parsed: unknown;
}

const triplePcts = (l: ImportedLatency | null): Pcts => (l ? { ...NONE, p50: l.p50.ms, p95: l.p95.ms, p99: l.p99.ms } : NONE);

export function fromImport(rec: ImportRecord): Comparable {
  const parsed = ImportedSummary.safeParse(rec.parsed);
  if (!parsed.success) throw new NotComparable(`${rec.id}: the stored import cannot be read (${parsed.error.issues[0]?.message ?? "invalid"})`);
  const s = parsed.data;
  const c = s.config;
  const pay = c.payloadBytes ?? null;
  const latency = { write: triplePcts(s.latencyMs.write), read: triplePcts(s.latencyMs.read), e2e: triplePcts(s.latencyMs.e2e) };
  const facts: Facts = {
    ...UNKNOWN_SERVER,
    durationSeconds: c.durationSeconds ?? null,
    throttleWritesPerSec: c.throttleWritesPerSec ?? null,
    payloadBytes: pay,
    warmupExcluded: false,
    rateDivisor: "configured duration",
    e2eClock: TOOL_CLOCK,
    backoff: "reference-effective",
    measuredThrough: null,
    effects: toolEffects(c),
    flags: [],
  };
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.configSources)) if (v === "inferred" || v === "default") annotations[k] = v;
  return {
    key: rec.id,
    kind: "import",
    badge: "imported",
    label: `Imported: ${rec.label}`,
    href: `/compare/imports/${rec.id}`,
    workload: s.workload,
    when: typeof rec.createdAt === "string" ? rec.createdAt : rec.createdAt.toISOString(),
    annotations,
    // The reference tool has no warm-up: nothing is excluded.
    config: {
      ...configCellsOf(s.workload, c, 1),
      warmupSeconds: 0,
    },
    env: {
      numbers: "imported output of the reference tool",
      server: null,
      serverCores: null,
      client: "the reference Go tool (pg_msg_bench)",
      postgresVersion: null,
      topology: null,
      synchronousCommit: null,
      fsync: null,
      settings: null,
      maxConnections: null,
      rateDivisor: "configured duration (the tool's way)",
      e2eClock: TOOL_CLOCK,
      backoff: TOOL_BACKOFF,
    },
    facts,
    throughput: {
      writePerSec: s.throughput.writeMsgPerSec,
      writeMiBPerSec: pay === null ? null : mibPerSec(s.throughput.writeMsgPerSec, pay),
      readPerSec: s.throughput.readMsgPerSec,
      readMiBPerSec: pay === null ? null : mibPerSec(s.throughput.readMsgPerSec, pay),
    },
    latency,
    distribution: {},
    points: { write: triplePoints(latency.write), read: triplePoints(latency.read), e2e: triplePoints(latency.e2e) },
    // The reference tool's live lines are its write and read rates: the operations of the same names.
    overTime: s.intervals.map((i) => ({ t: i.elapsedSec, rates: { write: i.writeMsgPerSec, read: i.readMsgPerSec } })),
    notes: s.notes,
  };
}
