// Types come from the schemas: a workload's config type is z.output of its params, which the params builder
// types from the field table's rows (workloads/fields.ts paramsObject, `field`, `fieldTable`); no config
// interface is restated beside a field table. The type checks below are compile-time (tsc fails on them).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { WorkloadConfig } from "../lib/workloads/config";
import { PROJECT_ROOT } from "../lib/paths";
import type { CacheConfig } from "./cache/definition";
import type { InsertsConfig } from "./inserts/definition";
import type { MixedConfig } from "./mixed/definition";
import type { PubsubConfig } from "./pubsub/definition";
import type { QueuedWorkflowsConfig } from "./queued-workflows/definition";
import type { SearchConfig } from "./search/definition";
import type { YongCommon } from "./yong/fields";

type Eq<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(ok: Eq<A, B>) => ok;

test("a config's type is its field table's: each field's control and options, defaulted fields always there", () => {
  same<CacheConfig["kind"], "cache">(true);
  same<CacheConfig["vus"], number>(true);
  same<CacheConfig["variant"], "baseline" | "modded">(true);
  // yongParams fills the load model and the rate in, so they are always there.
  same<CacheConfig["load"], "vus" | "rate">(true);
  same<CacheConfig["rate"], number>(true);
  same<SearchConfig["terms"], string>(true);
  same<MixedConfig["cacheVus"], number>(true);
  // Pub/sub's readers follow the partitions when left out (its transform).
  same<PubsubConfig["readers"], number>(true);
  same<PubsubConfig["backoff"], "reference-effective" | "nominal">(true);
  same<QueuedWorkflowsConfig["profile"], "2.17" | "current">(true);
  same<InsertsConfig["batchSize"], number>(true);
  // Every workload's timing fields, from the one shared table.
  same<WorkloadConfig["durationSeconds"], number>(true);
  same<YongCommon["thinkMs"], number>(true);
  // A name no row declares is not in the type.
  same<"nope" extends keyof InsertsConfig ? true : false, false>(true);
});

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

test("no config interface restated beside a field table, and no params builder told its type by hand", () => {
  const found: string[] = [];
  for (const file of sourceFiles("workloads").filter((f) => f !== "workloads/config-types.test.ts")) {
    const src = readFileSync(path.join(PROJECT_ROOT, file), "utf8");
    for (const m of src.matchAll(/\binterface\s+(\w*Shape)\b|(?<!function\s)\b(paramsObject|yongParams)\s*</g)) found.push(`${file}: ${m[0]}`);
  }
  assert.deepEqual(found, [], `types restated by hand (let the field table type the config):\n  ${found.join("\n  ")}`);
});
