// `npm run bench:sync-commit -- [--duration 10s] [--warmup 2s] [--repeats 1] [--levels off,local,remote_write,on,remote_apply]
//   [--writers 4] [--throttle 0] [--replica-delay 0.5ms]`
// What synchronous replication costs on this machine: starts an embedded primary with two standbys of its own
// (platform/replicated.ts, synchronous_standby_names 'FIRST 1 (pg2, pg3)', in a temporary folder, stopped at the
// end), runs the three-node pub/sub preset's shape (4 partitions, 5 consumer groups, batches of 100/200, 1 KiB) at
// each synchronous_commit level in the ladder's balanced order (lib/ladder/order.ts), and prints each level's write
// and end-to-end latency at p50/p99, throughput, SyncRep waits and each standby's lag, beside the 2016 ladder
// (lib/ladder/text.ts). --throttle 0 (the default) runs the writers as fast as they go, as pgbench's TPS did; a
// rate measures the latencies at one load instead. --replica-delay imitates a round trip between zones.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type LadderSlot, ladderOrder, parseLevels } from "../lib/ladder/order";
import { ladderStats } from "../lib/ladder/stats";
import { ladderText } from "../lib/ladder/text";
import type { RunSummary } from "../lib/measurement/summary";
import { parseReplicaDelay } from "../lib/targets/replicated-shape";
import { presetById, WorkloadConfig } from "../lib/workloads/config";
import { TARGET_DB } from "../platform/embedded";
import { startReplicated } from "../platform/replicated";
import { parseDuration } from "../runner/cli-args";
import { runWorkload } from "../runner/engine";
import { benchArgs } from "./bench-args";

const SYNC_NAMES = "FIRST 1 (pg2, pg3)";

function options() {
  const a = benchArgs(process.argv.slice(2), ["duration", "warmup", "repeats", "levels", "writers", "throttle", "replica-delay"]);
  const duration = parseDuration(a.duration ?? "10s");
  const warmup = parseDuration(a.warmup ?? "2s");
  if (duration === null || duration < 1) throw new Error(`--duration expects a duration such as 10s or 1m, got "${a.duration}"`);
  if (warmup === null) throw new Error(`--warmup expects a duration such as 2s, got "${a.warmup}"`);
  const levels = parseLevels(a.levels ?? "off,local,remote_write,on,remote_apply");
  if (!levels.ok) throw new Error(`--levels: ${levels.message}`);
  const whole = (name: string, v: string) => {
    if (!/^\d+$/.test(v)) throw new Error(`--${name} expects a whole number, got "${v}"`);
    return Number(v);
  };
  const delay = a["replica-delay"] === undefined ? 0 : parseReplicaDelay(a["replica-delay"]);
  if (delay === null) throw new Error(`--replica-delay expects a delay each way such as 0.5ms or 500us, got "${a["replica-delay"]}"`);
  return {
    ...{ duration, warmup, levels: levels.levels, delay },
    repeats: whole("repeats", a.repeats ?? "1"),
    writers: whole("writers", a.writers ?? "4"),
    throttle: whole("throttle", a.throttle ?? "0"),
  };
}

async function main() {
  const o = options();
  const preset = presetById("pubsub-4vcpu-three-node-sync-replicated");
  if (!preset) throw new Error("the published three-node pub/sub preset is missing");
  const config = WorkloadConfig.parse({
    ...preset.config,
    ...{ writers: o.writers, throttleWritesPerSec: o.throttle, durationSeconds: o.duration, warmupSeconds: o.warmup },
  });
  const home = mkdtempSync(path.join(os.tmpdir(), "pgbb-sync-commit-"));
  chmodSync(home, 0o755); // the postgres user must enter it
  const cluster = await startReplicated({ home, replicas: 2, synchronousStandbyNames: SYNC_NAMES, ...(o.delay ? { replicaDelayMs: o.delay } : {}) });
  const stop = async () => {
    await cluster.stop().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  };
  process.once("SIGINT", () => void stop().then(() => process.exit(130)));
  const d = cluster.delay;
  console.log(
    `primary pg1 on port ${cluster.primary.port}, standbys ${cluster.standbys.map((s) => `${s.name} on ${s.port}`).join(", ")}, synchronous_standby_names '${cluster.synchronousStandbyNames}'` +
      (d ? `, relay delay asked ${d.askedMs} ms each way, measured ${d.addedOneWayMs} ms` : ", no delay (one host)"),
  );
  console.log(
    `pub/sub ${o.writers} writers, 4 partitions, 5 groups, ${o.throttle ? `${o.throttle} msg/s` : "unthrottled"}; ${o.duration} s measured after ${o.warmup} s warm-up`,
  );
  const slots: LadderSlot[] = [];
  const summaries = new Map<string, RunSummary>();
  try {
    for (const [i, s] of ladderOrder(o.levels, o.repeats).entries()) {
      const summary = await runWorkload({ ...config, synchronousCommit: s.level }, cluster.primary.url(TARGET_DB), { drainSeconds: 10 });
      const id = `run ${i + 1}`;
      slots.push({ ...s, runId: id });
      summaries.set(id, summary);
      console.log(
        `${id}: round ${s.round}, synchronous_commit ${s.level}${summary.verification.ok ? "" : ` (verification: ${summary.verification.problems.join("; ")})`}`,
      );
    }
  } finally {
    await stop();
  }
  const st = ladderStats(slots, (id) => ({ status: "completed", summary: summaries.get(id) }));
  console.log(st ? ladderText(st) : "no run completed");
  process.exit(0);
}

main().catch((err) => {
  console.error(`bench:sync-commit: ${(err as Error).message}`);
  process.exit(1);
});
