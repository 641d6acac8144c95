// samples.csv: the columns a workload declares, every name unique; pub/sub and queue keep the names they had
// before workloads declared their metrics (docs/api.md lists them; scripts and notebooks read them).
import assert from "node:assert/strict";
import { test } from "node:test";
import { RunStats } from "../../runner/core/stats";
import { runnerOf } from "../../workloads/runners";
import { brokerOperations, runRoles } from "../../workloads/runtime";
import { csvColumns, samplesToCsv } from "./samples-csv";
import type { Sample } from "../measurement/sample";
import { payloadBytesOf, WorkloadConfig } from "../workloads/config";

/** Two samples of a short run of `config`, as the runner makes them (its own stats, its own group names). */
async function samplesOf(config: WorkloadConfig): Promise<Sample[]> {
  let now = 0;
  const stats = new RunStats(runRoles.groups(await runnerOf(config), config), payloadBytesOf(config) ?? 0, () => now);
  const ops = brokerOperations(stats);
  const out: Sample[] = [];
  for (let seq = 0; seq < 2; seq++) {
    ops.write.done(10);
    ops.write.latency.record(1500);
    for (const g of ops.groups) {
      g.read.done(10);
      g.e2e.latency.record(3000, 10);
    }
    now += 1000;
    out.push({ seq, time: new Date(now).toISOString(), phase: "measuring", metrics: stats.tick("measuring") });
  }
  return out;
}

const BROKER_COLUMNS = [
  ..."seq time phase elapsed_s interval_s write_msg_s write_mib_s write_count write_errors read_msg_s read_mib_s read_count read_errors empty_polls backlog".split(
    " ",
  ),
  ...["write", "writeScheduled", "writerLag", "read", "claim", "e2e", "e2eScheduled"].flatMap((m) => [
    `${m}_p50_ms`,
    `${m}_p95_ms`,
    `${m}_p99_ms`,
    `${m}_max_ms`,
    `${m}_latency_count`,
  ]),
  "runner_loop_delay_p99_ms",
  "runner_loop_delay_max_ms",
  "runner_cpu_cores",
];

for (const input of [
  { kind: "pubsub", writers: 2, partitions: 2, consumerGroups: 3 },
  { kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 100 },
] as const) {
  test(`${input.kind}: every column name is unique and the counts are told apart`, async () => {
    const csv = samplesToCsv(await samplesOf(WorkloadConfig.parse(input)), input.kind);
    const [header, first] = csv
      .trim()
      .split("\n")
      .map((l) => l.split(","));
    const dupes = header.filter((h, i) => header.indexOf(h) !== i);
    assert.deepEqual(dupes, [], `duplicate columns: ${dupes.join(", ")}`);
    assert.equal(first.length, header.length);
    assert.deepEqual(header.slice(0, csvColumns(input.kind).length), BROKER_COLUMNS);
    // Messages in that second vs how many latencies its histogram holds: different columns, different values.
    const col = (name: string) => first[header.indexOf(name)];
    assert.equal(col("write_count"), "10");
    assert.equal(col("write_latency_count"), "1");
    assert.equal(col("e2e_latency_count"), String(10 * (input.kind === "pubsub" ? 3 : 1)));
    assert.equal(col("read_count"), String(10 * (input.kind === "pubsub" ? 3 : 1)));
    const groups = input.kind === "pubsub" ? ["g0", "g1", "g2"] : ["queue"];
    assert.deepEqual(
      header.filter((h) => h.startsWith("group_")),
      groups.flatMap((g) => [`group_${g}_msg_s`, `group_${g}_backlog`]),
    );
  });
}

test("telemetry columns follow the errors only when the run has telemetry; a second without a reading leaves them empty", async () => {
  const samples = await samplesOf(WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1 }));
  const plain = samplesToCsv(samples, "queue").split("\n")[0].split(",");
  assert.equal(plain[plain.length - 1], "errors");
  samples[1].metrics.telemetry = {
    time: samples[1].time,
    intervalSec: 1,
    run: { total: 3, active: 1, idle: 2, idleInTx: 0 },
    runWaits: { "LWLock:WALWrite": 1 },
    other: { total: 0, active: 0, idle: 0, idleInTx: 0 },
    otherWaits: {},
    lockWaits: 0,
    runLockWaits: 0,
    db: {
      commitsPerSec: 123.5,
      rollbacksPerSec: 0,
      insertedPerSec: 0,
      updatedPerSec: 0,
      deletedPerSec: 0,
      blocksReadPerSec: 0,
      blocksHitPerSec: 0,
      deadlocks: 0,
    },
    overhead: { statements: 6, ms: 2.5 },
  };
  const [header, first, second] = samplesToCsv(samples, "queue")
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  assert.equal(header[header.indexOf("errors") + 1], "pg_run_connections");
  const col = (row: string[], name: string) => row[header.indexOf(name)];
  assert.equal(col(second, "pg_commits_s"), "123.5");
  assert.equal(col(second, "pg_run_wait_wal_flush"), "1");
  assert.equal(col(second, "host_cpu_pct"), "", "not measured: empty, never 0");
  assert.equal(col(first, "pg_commits_s"), "");
});
