// `npm run bench:memory -- [--minutes 10] [--target URL]`
// Runs the 4 vCPU pub/sub preset for a long time and prints the runner's resident memory (RSS) once a minute,
// then RSS after 1 minute against RSS at the end. The engine keeps histograms and O(1) state per
// (group, partition), never per-message arrays, so memory must stay flat: the end within 20% of minute 1.
import { referenceById } from "../lib/references";
import { presetById, WorkloadConfig } from "../lib/workloads";
import { resolveTarget } from "../runner/default-target";
import { runWorkload } from "../runner/engine";
import { num } from "../runner/format";

const PRESET = "pubsub-4vcpu-single-node";
const mib = (b: number) => b / 1048576;

async function main() {
  const argv = process.argv.slice(2);
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
            `W ${num(s.metrics.writes.msgPerSec, 0)}/s R ${num(s.metrics.reads.msgPerSec, 0)}/s backlog ${s.metrics.backlog}`,
        );
      },
    });
    const end = process.memoryUsage();
    rss.push({ sec: summary.window.measuredSeconds, rss: end.rss, heap: end.heapUsed });
    const first = rss[0];
    const last = rss[rss.length - 1];
    const ratio = last.rss / first.rss;
    console.log("");
    console.log(`RSS after ${num(first.sec / 60, 1)} min: ${num(mib(first.rss), 1)} MiB; at the end (${num(last.sec / 60, 1)} min): ${num(mib(last.rss), 1)} MiB; ratio ${num(ratio, 3)} → ${Math.abs(ratio - 1) <= 0.2 ? "flat (within 20%)" : "NOT flat"}`);
    console.log(
      `run: ${num(summary.writes.msgPerSec, 0)} writes/s, ${num(summary.reads.msgPerSec, 0)} reads/s over ${num(summary.window.measuredSeconds, 0)} s, ` +
        `${(summary.writes.count + summary.reads.count).toLocaleString("en-US")} messages; runner CPU ${num((100 * summary.manifest.runnerCpuSeconds) / summary.window.measuredSeconds, 1)}% of one core; verification ${summary.verification.ok ? "OK" : "FAILED"}`,
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
