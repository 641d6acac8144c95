// `npm run bench:memory -- [--minutes 10] [--target URL]`
// Runs the 4 vCPU pub/sub preset for a long time and prints the runner's resident memory (RSS) once a minute,
// then RSS after 1 minute against RSS at the end. The engine keeps histograms and O(1) state per
// (group, partition), never per-message arrays, so memory must stay flat: the end within 20% of minute 1.
//
// `npm run bench:memory -- --payload-run [--target URL] [--config '{"kind":…}'] [--json]`
// Big-payload runs (1 MiB messages) in this one process, or the one config given: for each, the workload's
// client-memory estimate (lib/workloads/memory.ts) beside the memory the run really added at its peak, and what is left
// after the run once released as the runner releases it (runner/release-memory.ts). --json: one JSON line.
import { clientMemoryBytes } from "../lib/workloads/memory";
import { referenceById } from "../lib/references/references";
import { presetById, toolWorkloads, WorkloadConfig } from "../lib/workloads/config";
import { resolveTarget } from "../runner/default-target";
import { runWorkload } from "../runner/engine";
import { releaseMemory } from "../runner/release-memory";
import { num } from "../runner/format";
import { knobsParts } from "../lib/runs/format";
import { measureOf, throughputOf } from "../lib/measurement/operations";

const PRESET = "pubsub-4vcpu-single-node";
const mib = (b: number) => b / 1048576;

/** Message data lives in the V8 heap (strings) and outside it (Buffers): both count. */
const held = () => {
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external, rss: m.rss };
};

/** The big-payload runs: estimate against measured peak, and memory left after the run. */
async function payloadRuns(targetArg: string | undefined, json: boolean, configArg: string | undefined) {
  // As the runner does after a run; then a moment for Buffers' memory, which is freed after the collection.
  const collect = async () => {
    releaseMemory();
    await new Promise((r) => setTimeout(r, 200));
  };
  const target = await resolveTarget(targetArg, (l) => !json && console.log(l));
  const configs = configArg
    ? [WorkloadConfig.parse(JSON.parse(configArg))]
    : [
        WorkloadConfig.parse({
          // The fan-out workload (pub/sub): its writers hold a whole batch of payloads, its readers another.
          kind: toolWorkloads().fanout.kind,
          writers: 1,
          writeBatch: 20,
          readBatch: 20,
          partitions: 1,
          payloadBytes: 1048576,
          durationSeconds: 2,
          warmupSeconds: 0,
        }),
        WorkloadConfig.parse({ kind: "queue", writers: 4, readers: 4, payloadBytes: 1048576, durationSeconds: 2, warmupSeconds: 0 }),
      ];
  const results = [];
  try {
    for (const config of configs) {
      await collect();
      const before = held();
      let peak = before;
      // Sampled every 20 ms: a peak between samples is missed, so the measured peak is a lower bound.
      const timer = setInterval(() => {
        const h = held();
        peak = { heap: Math.max(peak.heap, h.heap), rss: Math.max(peak.rss, h.rss) };
      }, 20);
      const summary = await runWorkload(config, target.url, {});
      clearInterval(timer);
      await collect();
      const after = held();
      const r = {
        config: knobsParts(config).join(", "),
        estimateMiB: mib(clientMemoryBytes(config)),
        peakAddedMiB: mib(peak.heap - before.heap),
        peakRssAddedMiB: mib(peak.rss - before.rss),
        leftAfterReleaseMiB: mib(after.heap - before.heap),
        rssLeftAfterReleaseMiB: mib(after.rss - before.rss),
        messages: throughputOf(summary, "write")?.count ?? 0,
      };
      results.push(r);
      if (!json)
        console.log(
          `${config.kind} (${r.config}): estimate ${num(r.estimateMiB, 0)} MiB; peak added ${num(r.peakAddedMiB, 0)} MiB (heap + buffers), ` +
            `RSS ${num(r.peakRssAddedMiB, 0)} MiB; left after the run was released: ${num(r.leftAfterReleaseMiB, 1)} MiB (RSS ${num(r.rssLeftAfterReleaseMiB, 0)} MiB); ${r.messages} messages written`,
        );
    }
  } finally {
    await target.release();
  }
  if (json) console.log(JSON.stringify(results));
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes("--payload-run")) {
    const t = argv.indexOf("--target");
    const c = argv.indexOf("--config");
    return payloadRuns(t >= 0 ? argv[t + 1] : undefined, argv.includes("--json"), c >= 0 ? argv[c + 1] : undefined);
  }
  let minutes = 10;
  let targetArg: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].replace(/^--?/, "").split("=", 2);
    const value = inline ?? argv[++i];
    if (flag === "minutes") minutes = Number(value);
    else if (flag === "target") targetArg = value;
    else throw new Error(`unknown flag ${argv[i]} (flags: --minutes N --target URL)`);
  }
  if (!Number.isFinite(minutes) || minutes < 2) throw new Error("--minutes must be at least 2 (RSS after 1 minute is the baseline)");

  const target = await resolveTarget(targetArg, (l) => console.log(l));
  const config = WorkloadConfig.parse({ ...presetById(PRESET)!.config, durationSeconds: Math.round(minutes * 60), warmupSeconds: 0 });
  console.log(`${presetById(PRESET)!.label} for ${minutes} min on ${target.label}; RSS of this process (the runner) once a minute`);
  const rss: { sec: number; rss: number; heap: number }[] = [];
  let nextMinute = 60;
  try {
    const summary = await runWorkload(config, target.url, {
      onSample: (s) => {
        if (s.phase !== "measuring" || s.metrics.elapsedSec < nextMinute) return;
        nextMinute += 60;
        const m = process.memoryUsage();
        rss.push({ sec: s.metrics.elapsedSec, rss: m.rss, heap: m.heapUsed });
        console.log(
          `[${num(s.metrics.elapsedSec / 60, 1).padStart(5)} min] RSS ${num(mib(m.rss), 1)} MiB, heap used ${num(mib(m.heapUsed), 1)} MiB; ` +
            `W ${num(throughputOf(s.metrics, "write")?.perSecond ?? 0, 0)}/s R ${num(throughputOf(s.metrics, "read")?.perSecond ?? 0, 0)}/s backlog ${measureOf(s.metrics, "backlog") ?? 0}`,
        );
      },
    });
    const end = process.memoryUsage();
    rss.push({ sec: summary.window.measuredSeconds, rss: end.rss, heap: end.heapUsed });
    const first = rss[0];
    const last = rss[rss.length - 1];
    const ratio = last.rss / first.rss;
    console.log("");
    console.log(
      `RSS after ${num(first.sec / 60, 1)} min: ${num(mib(first.rss), 1)} MiB; at the end (${num(last.sec / 60, 1)} min): ${num(mib(last.rss), 1)} MiB; ratio ${num(ratio, 3)} → ${Math.abs(ratio - 1) <= 0.2 ? "flat (within 20%)" : "NOT flat"}`,
    );
    console.log(
      `run: ${num(throughputOf(summary, "write")?.perSecond ?? 0, 0)} writes/s, ${num(throughputOf(summary, "read")?.perSecond ?? 0, 0)} reads/s over ${num(summary.window.measuredSeconds, 0)} s, ` +
        `${((throughputOf(summary, "write")?.count ?? 0) + (throughputOf(summary, "read")?.count ?? 0)).toLocaleString("en-US")} messages; runner CPU ${num((100 * summary.manifest.runnerCpuSeconds) / summary.window.measuredSeconds, 1)}% of one core; verification ${summary.verification.ok ? "OK" : "FAILED"}`,
    );
    const ref = referenceById(PRESET);
    if (ref) console.log(`(published scenario: ${ref.headline.writeMsgPerSec} writes/s, ${ref.headline.readMsgPerSec} reads/s)`);
    process.exitCode = Math.abs(ratio - 1) <= 0.2 && summary.verification.ok ? 0 : 1;
  } finally {
    await target.release();
  }
}

main().catch((err) => {
  console.error(`bench:memory: ${(err as Error).message}`);
  process.exit(1);
});
