// `npm run bench:yong -- [--target URL] [--duration 10s] [--only cache,jobqueue] [--scale 0.1]`
// Every baseline/modded pair Yong's article published, run here briefly: for each workload with variants and
// each published pair, the pair's config (its shape: VUs, think time, mix, pool; the window shortened), the
// baseline then the modded variant on one target, and our deltas (p50, p95, average, requests/s of all
// requests) printed beside the article's. Without --target it starts a private embedded Postgres in a
// temporary folder (default settings) and removes it afterwards.
//
// --scale multiplies the virtual users (at least 1 each) for a machine that cannot hold the article's 1,000:
// the shape then differs from the published one, and the output says so.
import { abRows, abText, publishedPairFor, variantInputs } from "../lib/compare/ab";
import { WorkloadConfig, workloadDefinitions } from "../lib/workloads/config";
import { parseDuration } from "../runner/cli-args";
import { runWorkload, verificationError } from "../runner/engine";
import type { PublishedResult } from "../workloads/types";
import { benchArgs } from "./bench-args";
import { benchTarget } from "./bench-target";

/** Fields that count virtual users: the published config's numbers that --scale multiplies. */
const VU_FIELDS = ["vus", "producers", "consumers", "subscribers", "publishers", "cacheVus", "searchVus", "notifyVus"];

async function main() {
  const a = benchArgs(process.argv.slice(2), ["target", "duration", "only", "scale"]);
  const duration = parseDuration(a.duration ?? "10s");
  if (duration === null || duration < 1) throw new Error(`--duration expects a duration such as 10s or 1m, got "${a.duration}"`);
  const scale = a.scale === undefined ? 1 : Number(a.scale);
  if (!(scale > 0 && scale <= 1)) throw new Error(`--scale expects a number in (0, 1], got "${a.scale}"`);
  const kinds = workloadDefinitions().filter((d) => d.fields.some((f) => f.name === "variant") && d.published?.length);
  const only = a.only?.split(",").filter(Boolean);
  const unknown = only?.filter((k) => !kinds.some((d) => d.kind === k));
  if (unknown?.length) throw new Error(`--only: ${unknown.join(", ")} has no published baseline/modded pair; use ${kinds.map((d) => d.kind).join(", ")}`);

  // One run per published pair: the pairs are the published baselines (each modded result is its partner).
  const pairs: PublishedResult[] = kinds
    .filter((d) => !only || only.includes(d.kind))
    .flatMap((d) => d.published!.filter((p) => p.config.variant === "baseline"));
  const target = await benchTarget(a.target, "yong", "pgbb_target");
  let failed = false;
  try {
    console.log(`target: ${target.label}; ${duration} s measured per run, no warm-up${scale < 1 ? `; virtual users × ${scale}` : ""}`);
    for (const p of pairs) {
      const shape: Record<string, unknown> = { ...p.config, durationSeconds: duration, warmupSeconds: 0 };
      for (const f of VU_FIELDS) if (typeof shape[f] === "number" && scale < 1) shape[f] = Math.max(1, Math.round((shape[f] as number) * scale));
      const inputs = variantInputs(shape);
      console.log(`\n=== ${p.title.replace(/, baseline.*$/, "")}: ${p.loadModel} ===`);
      const summaries = [];
      for (const v of ["baseline", "modded"] as const) {
        const config = WorkloadConfig.parse(inputs[v]);
        const s = await runWorkload(config, target.url, { log: () => undefined });
        const verr = verificationError(s);
        console.log(`${v}: ${verr ?? "verification OK"}`);
        failed ||= !!verr;
        summaries.push(s);
      }
      // The article's pair beside ours, always; said when our config is no longer its shape (--scale).
      const same = publishedPairFor(summaries[0].config as never);
      const modded = workloadDefinitions()
        .find((d) => d.kind === p.config.kind)!
        .published!.find((x) => x.id === p.id.replace(/baseline$/, "modded"))!;
      const pub = same ?? { baseline: p, modded };
      console.log(abText(abRows(summaries[0], summaries[1], pub), pub));
      console.log(
        `published latencies: ${p.measuredThrough}; ours: runner → Postgres, pool wait included${same ? "" : "; our virtual users are scaled, so the shapes differ"}`,
      );
    }
  } finally {
    await target.release();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(`bench:yong: ${(err as Error).message}`);
  process.exit(1);
});
