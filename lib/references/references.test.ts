// The reference figures in lib/ must equal those of the published dataset, one by one. The project carries
// the dataset as a fixture (fixtures/kozlovski/published-results.json; see fixtures/README.md).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { FIXTURES_DIR } from "../paths";
import { fitWarnings, referenceById, REFERENCES, referenceWorkload, sourceUrl } from "./references";
import { presetById, WorkloadConfig } from "../workloads/config";

// `any`: the shared dataset is untyped JSON.
const DATASET = path.join(FIXTURES_DIR, "kozlovski", "published-results.json");
const shared: any = JSON.parse(readFileSync(DATASET, "utf8"));

const triple = (l: any) => ({ p50: l.p50, p95: l.p95, p99: l.p99 });

test("there are exactly the six published scenarios, in the dataset's order", () => {
  assert.deepEqual(
    REFERENCES.map((r) => r.id),
    shared.scenarios.map((s: any) => s.id),
  );
  assert.equal(REFERENCES.length, 6);
});

for (const s of shared.scenarios) {
  test(`${s.id}: hardware, Postgres, config and sources equal the dataset`, () => {
    const r = referenceById(s.id)!;
    assert.ok(r, `${s.id} missing from lib/`);
    assert.equal(r.workload, s.mode);
    assert.equal(r.source, s.source);
    assert.deepEqual(r.otherSources, s.other_sources);
    assert.equal(r.server.instance, s.server.instance);
    assert.equal(r.server.vcpu, s.server.vcpu);
    assert.equal(r.server.ramGib, s.server.ram_gib);
    assert.equal(r.server.disk, s.server.disk);
    assert.equal(r.client.instance, s.client.instance);
    assert.equal(r.nodes, s.nodes);
    assert.equal(r.replication?.synchronousStandbyNames ?? null, s.replication?.synchronous_standby_names ?? null);
    assert.deepEqual(
      r.replicas.map((x) => x.name),
      (s.replicas ?? []).map((x: any) => x.name),
    );
    assert.equal(r.postgres.version, s.postgres.version);
    assert.equal(r.postgres.settings, s.postgres.settings);
    assert.deepEqual(r.postgres.settingsChanged, s.postgres.settings_changed);
    assert.deepEqual(r.postgres.tableSettings, s.postgres.table_settings);
    assert.equal(r.command, s.command);

    const c = s.config;
    assert.equal(r.config.writers, c.writers);
    assert.equal(r.config.payloadBytes, c.payload_bytes);
    assert.equal(r.config.durationSeconds, c.duration_s);
    assert.equal(r.config.throttleWritesPerSec, c.throttle_writes_msg_s);
    assert.equal(r.config.runs, c.runs);
    assert.equal(r.runs.length, c.runs);
    if (s.mode === "pubsub") {
      assert.equal(r.config.readers, c.readers_per_group);
      assert.equal(r.config.readersTotal, c.readers_total);
      assert.equal(r.config.consumerGroups, c.consumer_groups);
      assert.equal(r.config.partitions, c.partitions);
      assert.equal(r.config.writeBatch, c.write_batch);
      assert.equal(r.config.readBatch, c.read_batch);
    } else {
      assert.equal(r.config.readers, c.readers);
      assert.equal(r.config.tuneTableVacuum, c.tune_table_vacuum);
    }
  });

  test(`${s.id}: the published headline equals the dataset`, () => {
    const r = referenceById(s.id)!;
    const h = s.headline;
    assert.equal(r.headline.writeMsgPerSec, h.write_msg_s);
    assert.equal(r.headline.writeMiBPerSec, h.write_MiB_s);
    assert.equal(r.headline.readMsgPerSec, h.read_msg_s);
    if (h.read_MiB_s !== undefined) assert.equal(r.headline.readMiBPerSec, h.read_MiB_s);
    else assert.equal(r.headline.readMiBPerSec, Math.round(h.read_GiB_s * 1024 * 100) / 100); // published in GiB/s
    assert.equal(r.headline.readGiBPerSec, h.read_GiB_s ?? null);
    assert.deepEqual(r.headline.latencyMs.write, triple(h.write_latency_ms));
    assert.deepEqual(r.headline.latencyMs.read, triple(h.read_latency_ms));
    assert.deepEqual(r.headline.latencyMs.e2e, triple(h.e2e_latency_ms));
    const m = s.computed_from_runs;
    assert.equal(r.computedFromRuns.writeMsgPerSec, m.write_msg_s_mean);
    assert.equal(r.computedFromRuns.readMsgPerSec, m.read_msg_s_mean);
    for (const k of ["write", "read", "e2e"] as const)
      for (const p of ["p50", "p95", "p99"] as const) assert.equal(r.computedFromRuns.latencyMs[k][p], m[`${k}_latency_${p}_ms_mean`], `${k} ${p}`);
  });

  test(`${s.id}: every per-run number equals the dataset`, () => {
    const r = referenceById(s.id)!;
    s.runs.forEach((sr: any, i: number) => {
      const rr = r.runs[i];
      assert.equal(rr.run, sr.run);
      assert.equal(rr.source, sr.source);
      assert.deepEqual(rr.sourceLines, sr.source_lines);
      const base = s.mode === "queue" ? sr.summary : sr.base_summary;
      assert.equal(rr.writes.total, base.total_writes);
      assert.equal(rr.writes.errors, base.write_errors);
      assert.equal(rr.writes.msgPerSec, base.avg_write_throughput_rows_per_sec);
      assert.deepEqual(rr.latencyMs.write, triple(base.write_latency));
      const rd = s.mode === "queue" ? sr.summary : sr.pubsub_summary.aggregate;
      assert.equal(rr.reads.total, s.mode === "queue" ? rd.total_reads : rd.reads_completed);
      assert.equal(rr.reads.msgPerSec, s.mode === "queue" ? rd.avg_read_throughput_rows_per_sec : rd.avg_throughput_reads_per_sec);
      assert.deepEqual(rr.latencyMs.read, triple(rd.read_latency));
      assert.deepEqual(rr.latencyMs.e2e, triple(rd.e2e_latency));
      if (s.mode === "pubsub") {
        assert.equal(rr.groups.length, sr.pubsub_summary.groups.length);
        sr.pubsub_summary.groups.forEach((g: any, j: number) => {
          assert.equal(rr.groups[j].reads, g.reads_completed);
          assert.equal(rr.groups[j].msgPerSec, g.avg_throughput_reads_per_sec);
          assert.deepEqual(rr.groups[j].latencyMs.e2e, triple(g.e2e_latency));
          assert.deepEqual(rr.groups[j].latencyMs.read, triple(g.read_latency));
        });
      }
    });
  });

  test(`${s.id}: the headline is the mean of the per-run numbers, as the dataset says`, () => {
    const r = referenceById(s.id)!;
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const k of ["write", "read", "e2e"] as const)
      for (const p of ["p50", "p95", "p99"] as const) {
        const m = mean(r.runs.map((x) => x.latencyMs[k][p].ms));
        assert.ok(Math.abs(m - r.computedFromRuns.latencyMs[k][p]) < 1e-6, `${k} ${p}: ${m} vs ${r.computedFromRuns.latencyMs[k][p]}`);
      }
  });
}

test("each reference has its preset, whose config is the reference's client config", () => {
  for (const r of REFERENCES) {
    const preset = presetById(r.id);
    assert.ok(preset, `no preset for ${r.id}`);
    assert.equal(preset.referenceId, r.id);
    const fromPreset = WorkloadConfig.parse(preset.config);
    const fromRef = referenceWorkload(r);
    // The preset keeps our default warm-up; the reference had none. Everything else must match.
    assert.deepEqual({ ...fromPreset, warmupSeconds: 0 }, fromRef);
  }
});

test("queue scenarios carry the author's e2e flaw as a caveat; links point at the exact commit", () => {
  for (const r of REFERENCES.filter((x) => x.workload === "queue"))
    assert.ok(r.caveats.some((c) => c.by === "author" && /inflated/.test(c.text) && c.source === "results/queue/IMPERFECTIONS.md"));
  assert.equal(
    sourceUrl("results/queue/IMPERFECTIONS.md"),
    "https://github.com/stanislavkozlovski/pg-queue-pubsub-benchmark/blob/8164907ba0f1afa6bfec3b402950217f31952d2a/results/queue/IMPERFECTIONS.md",
  );
});

test("fitWarnings: the 96 vCPU pubsub run cannot fit a default max_connections=100", () => {
  const r = referenceById("pubsub-96vcpu-single-node")!;
  const w = fitWarnings(
    referenceWorkload(r),
    { maxConnections: 100, reservedConnections: 3, connectionsInUse: 5, cores: 2, memoryGiB: 24, targetIsEmbedded: true },
    r,
  );
  const blocker = w.find((x) => x.severity === "blocker");
  assert.ok(blocker);
  assert.match(blocker.text, /needs 252 connections/); // 100 writers + 30 readers × 5 groups + set-up + telemetry
  assert.match(blocker.text, /92 are free/);
  assert.match(blocker.text, /max_connections=500/);
  assert.ok(w.some((x) => /shared_buffers=48GB/.test(x.text)));
  // The 4 vCPU queue config fits 100 connections (10 + 15 + 2 = 27).
  const q = referenceById("queue-4vcpu-single-node")!;
  const wq = fitWarnings(referenceWorkload(q), { maxConnections: 100, reservedConnections: 3, connectionsInUse: 5 }, q);
  assert.equal(wq.filter((x) => x.severity === "blocker").length, 0);
  assert.ok(wq.some((x) => x.field === "durationSeconds")); // 1800 s
});
