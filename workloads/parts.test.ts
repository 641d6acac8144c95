// Splitting a run over runner processes (issue #23), without I/O: the product's workloads all declare how they
// split, a config that cannot split says which field to raise, and a part's virtual users keep their global
// numbers. That every registered workload's parts add up to its whole run is the conformance suite's
// (workloads/exercise/split.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { WorkloadConfig, type WorkloadInput } from "../lib/workloads/config";
import { owned, partPacing, partsProblem } from "../lib/workloads/parts";
import { instance } from "./exercise/split";
import { definitionOf } from "./index";
import { builtInKinds } from "./index";

test("the eight workloads of Yong's and DBOS's studies declare how they split (pub/sub and the queue too)", () => {
  const without = builtInKinds().filter((kind) => !definitionOf({ kind } as WorkloadConfig).parts);
  // The queue libraries do not: their workers are the library's own pools in the runner's process, and a job's
  // start and end are timed there, so a run of one is one process.
  assert.deepEqual(without, ["graphile-worker", "pg-boss"]);
});

test("a config that cannot split says how many it has and which field to raise", () => {
  const cases: [WorkloadInput, number, RegExp][] = [
    [{ kind: "cache", vus: 20, pool: 2 }, 3, /need at least 3 pool connections to own one each, and this cache run has 2: lower processes to 2 or raise pool/],
    [{ kind: "cache", vus: 2, pool: 10 }, 3, /need at least 3 virtual users .* has 2: lower processes to 2 or raise vus/],
    [{ kind: "cache", load: "rate", rate: 50, vus: 1, pool: 3 }, 4, /has 3: lower processes to 3 or raise pool/],
    [{ kind: "jobqueue", producers: 1, consumers: 1, pool: 10 }, 3, /3 virtual users .* has 2: .* raise producers or consumers/],
    [{ kind: "mixed", cacheVus: 1, searchVus: 0, notifyVus: 0, producers: 1, consumers: 0, pool: 10 }, 5, /has 2: .* raise cacheVus, searchVus/],
    [{ kind: "notify", vus: 50, pool: 1 }, 2, /raise pool/],
    [{ kind: "search", vus: 1, pool: 1 }, 2, /raise (pool|vus)/],
    [{ kind: "inserts", connections: 2 }, 4, /need at least 4 connections .* has 2: lower processes to 2 or raise connections/],
    [{ kind: "workflows", connections: 1 }, 2, /raise connections/],
    [{ kind: "queued-workflows", enqueuers: 2, workers: 8 }, 3, /3 enqueuers .* has 2: .* raise enqueuers/],
    [{ kind: "queued-workflows", enqueuers: 8, workers: 2 }, 3, /3 workers .* has 2: .* raise workers/],
  ];
  for (const [input, processes, message] of cases) {
    const config = WorkloadConfig.parse({ ...input, processes });
    assert.match(partsProblem(config) ?? "(no problem)", message, JSON.stringify(input));
  }
});

test("a part's virtual users keep their global numbers: part 1 of 3 runs VUs 1, 4, 7 of 9", async () => {
  assert.deepEqual(owned(9, { index: 1, of: 3 }), [1, 4, 7]);
  const config = WorkloadConfig.parse({ kind: "cache", vus: 9, pool: 3, processes: 3 });
  const { run } = await instance(config, { index: 1, of: 3 });
  assert.deepEqual(run.roles, ["pool 1"]);
  assert.equal(partPacing(config, { index: 1, of: 3 }).virtualUsers, 3);
});
