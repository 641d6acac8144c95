// Regenerates lib/references/references.data.json from the dataset of the published results
// (fixtures/kozlovski/published-results.json, a copy of the published dataset), keeping what the app shows and compares:
// hardware, Postgres version and settings, client config, per-run final numbers, the averaged headline
// and the sources. Caveats are written by hand in lib/references/references.ts, each naming its source.
//   node --import tsx scripts/gen-references.ts [path/to/published-results.json]
// lib/references/references.test.ts checks every figure of the generated file against that dataset again.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FIXTURES_DIR, PROJECT_ROOT } from "../lib/paths";
import { toolWorkloads, workloadDefinitions } from "../lib/workloads/config";

// `any`: the input is an untyped JSON document.
type J = any;

const src = process.argv[2] ?? path.join(FIXTURES_DIR, "kozlovski", "published-results.json");
const out = path.join(PROJECT_ROOT, "lib", "references", "references.data.json");
const data: J = JSON.parse(readFileSync(src, "utf8"));

const seconds = (s: string) => {
  const m = /^(\d+)s$/.exec(s);
  if (!m) throw new Error(`unexpected duration flag ${s}`);
  return Number(m[1]);
};
const triple = (l: J) => ({ p50: l.p50, p95: l.p95, p99: l.p99 });
const rawTriple = (l: J) => ({ p50: l.p50, p95: l.p95, p99: l.p99 });
const notes = (...xs: (string | undefined)[]) => xs.filter((x): x is string => typeof x === "string" && x.length > 0);

/** The dataset names the tool's -mode; our workload of that mode (its definition's referenceMode), and whether
 *  it is the tool's fan-out one (reads per consumer group), whose numbers come from other blocks. */
function workloadOf(mode: string): { kind: string; fanout: boolean } {
  const d = workloadDefinitions().find((x) => x.referenceMode === mode);
  if (!d) throw new Error(`no workload has the reference tool's mode "${mode}"`);
  return { kind: d.kind, fanout: d === toolWorkloads().fanout };
}

function run(fanout: boolean, r: J) {
  const common = { run: r.run, source: r.source, sourceLines: r.source_lines, command: r.command, durationSeconds: seconds(r.flags.duration) };
  if (!fanout) {
    const s = r.summary;
    return {
      ...common,
      writes: { total: s.total_writes, errors: s.write_errors, msgPerSec: s.avg_write_throughput_rows_per_sec },
      reads: { total: s.total_reads, errors: s.read_errors, msgPerSec: s.avg_read_throughput_rows_per_sec },
      latencyMs: { write: rawTriple(s.write_latency), read: rawTriple(s.read_latency), e2e: rawTriple(s.e2e_latency) },
      groups: [],
    };
  }
  const b = r.base_summary;
  const a = r.pubsub_summary.aggregate;
  return {
    ...common,
    writes: { total: b.total_writes, errors: b.write_errors, msgPerSec: b.avg_write_throughput_rows_per_sec },
    reads: { total: a.reads_completed, errors: a.read_errors, msgPerSec: a.avg_throughput_reads_per_sec },
    // Pubsub: write latency from the base summary (its read/e2e print 0s and mean nothing, methodology §2.5);
    // read and e2e from the "Aggregate Across All Groups" block (all readers' histograms merged).
    latencyMs: { write: rawTriple(b.write_latency), read: rawTriple(a.read_latency), e2e: rawTriple(a.e2e_latency) },
    groups: r.pubsub_summary.groups.map((g: J) => ({
      group: g.group,
      reads: g.reads_completed,
      readErrors: g.read_errors,
      claimErrors: g.claim_errors,
      emptyClaims: g.empty_claims,
      avgPollSize: g.avg_poll_size,
      msgPerSec: g.avg_throughput_reads_per_sec,
      latencyMs: { read: rawTriple(g.read_latency), e2e: rawTriple(g.e2e_latency) },
    })),
  };
}

const scenarios = data.scenarios.map((s: J) => {
  const c = s.config;
  const h = s.headline;
  const cfr = s.computed_from_runs;
  const { kind, fanout: pubsub } = workloadOf(s.mode);
  return {
    id: s.id,
    workload: kind,
    title: s.title_in_source,
    source: s.source,
    otherSources: s.other_sources,
    server: {
      instance: s.server.instance,
      vcpu: s.server.vcpu,
      ramGib: s.server.ram_gib,
      disk: s.server.disk,
      os: s.server.os,
      az: s.server.az,
      cpuUsage: s.server.cpu_usage,
      notes: notes(s.server.disk_note, s.server.ram_note),
    },
    replicas: (s.replicas ?? []).map((r: J) => ({ name: r.name, instance: r.instance, disk: r.disk, role: r.role, az: r.az })),
    client: { instance: s.client.instance, az: s.client.az, notes: notes(s.client.note) },
    nodes: s.nodes,
    replication: s.replication
      ? { type: s.replication.type, synchronousStandbyNames: s.replication.synchronous_standby_names, description: s.replication.description ?? null }
      : null,
    postgres: {
      version: s.postgres.version,
      settings: s.postgres.settings,
      settingsChanged: s.postgres.settings_changed,
      fullSettingsList: s.postgres.settings_changed_full_list ?? s.postgres.settings_changed_full_list_in_queue_setup_doc ?? null,
      replicaSettings: s.postgres.replica_settings ?? null,
      kernel: s.postgres.kernel ?? null,
      tableSettings: s.postgres.table_settings,
      notes: notes(s.postgres.note),
    },
    config: {
      kind,
      writers: c.writers,
      // pubsub: readers per consumer group (= partitions); queue: readers in total. As our WorkloadConfig.
      readers: pubsub ? c.readers_per_group : c.readers,
      readersTotal: pubsub ? c.readers_total : c.readers,
      consumerGroups: pubsub ? c.consumer_groups : null,
      partitions: pubsub ? c.partitions : null,
      writeBatch: pubsub ? c.write_batch : null,
      readBatch: pubsub ? c.read_batch : null,
      payloadBytes: c.payload_bytes,
      durationSeconds: c.duration_s,
      throttleWritesPerSec: c.throttle_writes_msg_s,
      reportInterval: c.report_interval,
      tuneTableVacuum: pubsub ? null : c.tune_table_vacuum,
      runs: c.runs,
      notes: notes(c.payload_source, c.duration_note, c.report_note),
    },
    command: s.command,
    headline: {
      source: h.source,
      aggregation: h.aggregation,
      writeMsgPerSec: h.write_msg_s,
      writeMiBPerSec: h.write_MiB_s,
      readMsgPerSec: h.read_msg_s,
      // Only the 96 vCPU pubsub scenario publishes its read rate in GiB/s (1.16); 1 GiB = 1024 MiB.
      readMiBPerSec: h.read_MiB_s ?? Math.round(h.read_GiB_s * 1024 * 100) / 100,
      readGiBPerSec: h.read_GiB_s ?? null,
      writeAsPublished: h.write_msg_s_as_published ?? null,
      readAsPublished: h.read_msg_s_as_published ?? null,
      latencyMs: { write: triple(h.write_latency_ms), read: triple(h.read_latency_ms), e2e: triple(h.e2e_latency_ms) },
      cpu: h.cpu,
      bottleneck: h.bottleneck ?? null,
      readFanout: h.read_fanout ?? null,
      e2eFlag: h.e2e_flag ?? null,
    },
    computedFromRuns: {
      source: cfr.source,
      writeMsgPerSec: cfr.write_msg_s_mean,
      readMsgPerSec: cfr.read_msg_s_mean,
      writeMiBPerSec: cfr.write_MiB_s_from_mean,
      readMiBPerSec: cfr.read_MiB_s_from_mean,
      latencyMs: Object.fromEntries(
        (["write", "read", "e2e"] as const).map((m) => [
          m,
          { p50: cfr[`${m}_latency_p50_ms_mean`], p95: cfr[`${m}_latency_p95_ms_mean`], p99: cfr[`${m}_latency_p99_ms_mean`] },
        ]),
      ),
    },
    runs: s.runs.map((r: J) => run(pubsub, r)),
    notes: notes(s.code_version_note, s.observations_from_log, s.imperfections_excerpt?.content),
  };
});

const doc = {
  generatedBy: "scripts/gen-references.ts",
  generatedFrom: "fixtures/kozlovski/published-results.json",
  repo: data.repo,
  commit: data.commit,
  article: data.article,
  units: data.units,
  globalContext: data.global_context,
  scenarios,
};
writeFileSync(out, `${JSON.stringify(doc, null, 1)}\n`);
console.log(`wrote ${path.relative(PROJECT_ROOT, out)}: ${scenarios.length} scenarios, ${scenarios.reduce((n: number, s: J) => n + s.runs.length, 0)} runs`);
