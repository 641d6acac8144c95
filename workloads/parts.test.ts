// Every workload that splits over runner processes (issue #23), without I/O: for N = 1 … min(4, max) parts, the
// parts' roles are the whole run's roles exactly once each, their writers add up, their shares of the rate add
// up to 1 and their virtual users to the run's; a config that cannot split says which field to raise.
import assert from "node:assert/strict";
import { test } from "node:test";
import { payloadBytesOf, WorkloadConfig, type WorkloadInput } from "../lib/workloads/config";
import { owned, type PartOfRun, partPacing, partsProblem } from "../lib/workloads/parts";
import { clock, Pacer, RunStats, Stopper } from "../runner/core";
import { RunFootprint } from "../runner/harness";
import { definitionOf } from "./index";
import { WORKLOADS, workloadFor } from "./runners";
import { runRoles } from "./runtime";

/** Configs with room to split (max ≥ 3), closed and open loop where a workload has both. */
const CONFIGS: WorkloadInput[] = [
  { kind: "cache", vus: 10, pool: 6 },
  { kind: "cache", vus: 3, pool: 10 },
  { kind: "cache", load: "rate", rate: 700, pool: 5 },
  { kind: "jobqueue", producers: 4, consumers: 3, pool: 10 },
  { kind: "jobqueue", load: "rate", rate: 300, pool: 7 },
  { kind: "search", vus: 9, pool: 4, articles: 200 },
  { kind: "notify", vus: 7, pool: 5 },
  { kind: "notify", load: "rate", rate: 100, pool: 4 },
  { kind: "mixed", cacheVus: 3, searchVus: 2, notifyVus: 2, producers: 2, consumers: 1, pool: 5, articles: 200 },
  { kind: "mixed", load: "rate", rate: 400, pool: 6, articles: 200 },
  { kind: "inserts", rate: 1000, connections: 5 },
  { kind: "workflows", rate: 300, connections: 7 },
  { kind: "queued-workflows", enqueuers: 5, workers: 4, executors: 2 },
  { kind: "queued-workflows", enqueuers: 3, workers: 6, executors: 1 },
];

function instance(config: WorkloadConfig, part?: PartOfRun) {
  const module = workloadFor(config);
  const stats = new RunStats(runRoles.groups(module, config as never), payloadBytesOf(config) ?? 0, clock);
  const ctx = {
    config: config as never,
    schema: '"pgbb_parts_test"',
    stats,
    pacer: new Pacer(partPacing(config, part), stats),
    writersStop: new Stopper(),
    readersStop: new Stopper(),
    fatal: (e: Error) => assert.fail(e),
    log: () => undefined,
    footprint: new RunFootprint(),
    ...(part ? { part } : {}),
  };
  return { run: module.create(ctx), writers: module.writerCount(config as never, part) };
}

const sorted = (a: string[]) => [...a].sort();

test("the eight workloads of Yong's and DBOS's studies declare how they split (pub/sub and the queue too)", () => {
  const without = Object.keys(WORKLOADS).filter((kind) => !definitionOf({ kind } as WorkloadConfig).parts);
  assert.deepEqual(without, []);
});

for (const input of CONFIGS) {
  const config = WorkloadConfig.parse(input);
  const def = definitionOf(config);
  test(`${JSON.stringify(input)}: N parts run the whole run's roles once each, its writers, its rate and its users`, () => {
    assert.ok(def.parts, `${config.kind} has no parts`);
    const max = def.parts.max(config as never);
    assert.ok(max >= 3, `the test's config should split in 3 or more (max ${max})`);
    const whole = instance(config);
    const pacing = partPacing(config);
    for (let n = 1; n <= Math.min(4, max); n++) {
      const parts = Array.from({ length: n }, (_, index) => ({ index, of: n }));
      const runs = parts.map((p) => instance({ ...config, processes: n } as WorkloadConfig, p));
      const what = `${config.kind} over ${n}`;
      assert.deepEqual(sorted(runs.flatMap((r) => r.run.roles)), sorted(whole.run.roles), `${what}: roles`);
      // Writers come first in a part's roles: its writers are the whole run's writers, each once.
      assert.deepEqual(sorted(runs.flatMap((r) => r.run.roles.slice(0, r.writers))), sorted(whole.run.roles.slice(0, whole.writers)), `${what}: writers`);
      const shares = parts.map((p) => def.parts!.share(config as never, p));
      assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 1) < 1e-9, `${what}: shares ${shares.join(" + ")}`);
      const paced = parts.map((p) => partPacing({ ...config, processes: n } as WorkloadConfig, p));
      if (pacing.targetPerSecond !== undefined) {
        const sum = paced.reduce((a, p) => a + (p.targetPerSecond ?? 0), 0);
        assert.ok(Math.abs(sum - pacing.targetPerSecond) < 1e-6, `${what}: rates add up to ${sum}, not ${pacing.targetPerSecond}`);
      }
      if (pacing.virtualUsers !== undefined) {
        assert.equal(
          paced.reduce((a, p) => a + (p.virtualUsers ?? 0), 0),
          pacing.virtualUsers,
          `${what}: virtual users`,
        );
        for (const [i, p] of paced.entries()) assert.ok((p.virtualUsers ?? 0) >= 1, `${what}: part ${i} has a virtual user`);
      }
      assert.equal(partsProblem({ ...config, processes: n } as WorkloadConfig), null, `${what}: no problem`);
    }
  });
}

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

test("a part's virtual users keep their global numbers: part 1 of 3 runs VUs 1, 4, 7 of 9", () => {
  assert.deepEqual(owned(9, { index: 1, of: 3 }), [1, 4, 7]);
  const config = WorkloadConfig.parse({ kind: "cache", vus: 9, pool: 3, processes: 3 });
  const { run } = instance(config, { index: 1, of: 3 });
  assert.deepEqual(run.roles, ["pool 1"]);
  assert.equal(partPacing(config, { index: 1, of: 3 }).virtualUsers, 3);
});
