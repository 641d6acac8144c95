// `npm run bench:yong -- [--duration 10s] [--warmup 2s] [--target URL] [--only cache,search,…] [--json DIR]`
// Runs each of Yong's five workloads as an A/B pair (baseline, then modded, same target, same load: the
// published run's config, shorter) on the embedded Postgres or --target, and prints our baseline → modded
// deltas (p50, p95, average, requests/s over all requests) beside the article's. Absolute latencies differ by
// design (the article's went through HTTP); the deltas are what compare.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { abRows, abText } from "../lib/ab";
import type { RunSummary } from "../lib/summary";
import { WorkloadConfig } from "../lib/workloads";
import { parseDuration } from "../runner/cli-args";
import { resolveTarget } from "../runner/default-target";
import { runWorkload, verificationError } from "../runner/engine";
import { liveLine } from "../runner/format";
import { benchArgs } from "./bench-args";
import { publishedPair, YONG_KINDS } from "./yong-deltas";

async function main() {
  const a = benchArgs(process.argv.slice(2), ["duration", "warmup", "target", "only", "json"]);
  const duration = parseDuration(a.duration ?? "10s");
  const warmup = parseDuration(a.warmup ?? "2s");
  if (duration === null || duration < 1) throw new Error(`--duration expects a duration such as 10s or 1m, got "${a.duration}"`);
  if (warmup === null) throw new Error(`--warmup expects a duration such as 2s, got "${a.warmup}"`);
  const kinds = a.only ? a.only.split(",").map((k) => k.trim()) : [...YONG_KINDS];
  const unknown = kinds.filter((k) => !(YONG_KINDS as readonly string[]).includes(k));
  if (unknown.length) throw new Error(`--only expects some of ${YONG_KINDS.join(",")}, got "${unknown.join(",")}"`);
  const pairs = kinds.map((k) => ({ kind: k, ...publishedPair(k) }));
  const target = await resolveTarget(a.target, (l) => console.log(l));
  let failed = false;
  const results: string[] = [];
  try {
    for (const { kind, baseline, modded } of pairs) {
      const summaries: RunSummary[] = [];
      for (const pub of [baseline, modded]) {
        const config = WorkloadConfig.parse({ ...pub.config, durationSeconds: duration, warmupSeconds: warmup });
        console.log(`\n=== ${pub.title}: ${pub.loadModel}, ${duration} s measured after ${warmup} s warm-up, on ${target.label} ===`);
        const summary = await runWorkload(config, target.url, {
          onReport: (r) => console.log(liveLine(r, config.kind)),
          log: (l) => console.log(`  ${l}`),
        });
        summaries.push(summary);
        const err = verificationError(summary);
        console.log(err ?? "verification: OK");
        for (const n of summary.notes ?? []) console.log(`  note: ${n}`);
        failed ||= !!err;
        if (a.json) {
          mkdirSync(a.json, { recursive: true });
          const file = path.resolve(a.json, `${pub.id}.json`);
          writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
          console.log(`summary written to ${file}`);
        }
      }
      const table = abText(abRows(summaries[0], summaries[1], { baseline, modded }), { baseline, modded });
      results.push(
        `${kind}: ${baseline.title.replace(/, baseline.*$/, "")} (all requests; ours from the runner straight to Postgres, the article's through HTTP)\n${table}`,
      );
      console.log(`\n${results[results.length - 1]}`);
    }
  } finally {
    await target.release();
  }
  console.log(`\n=== baseline → modded, ours beside the article's (${duration} s runs on ${target.label}) ===\n`);
  console.log(results.join("\n\n"));
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(`bench:yong: ${(err as Error).message}`);
  process.exit(1);
});
