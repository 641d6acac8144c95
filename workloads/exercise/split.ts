// exercise(): how a workload splits over runner processes (issue #23), without I/O. For N = 1 … min(4, max) parts,
// the parts' roles are the whole run's roles exactly once each, their writers add up, their shares of the rate
// add up to 1 and their virtual users to the run's. Checked on its presets and on the configs with room to split
// its test hooks name (workloads/<kind>/testing.ts `splits`).
import assert from "node:assert/strict";
import { payloadBytesOf, WorkloadConfig } from "../../lib/workloads/config";
import { type PartOfRun, partPacing, partsProblem } from "../../lib/workloads/parts";
import { clock, Pacer, RunStats, Stopper } from "../../runner/core";
import { RunFootprint } from "../../runner/harness";
import type { WorkloadHooks } from "../hooks";
import { runnerOf } from "../runners";
import type { WorkloadDefinition } from "../types";
import { runRoles } from "../runtime";

/** A workload's run instance for `part` (none: the whole run), built as the engine builds it, never started. */
export async function instance(config: WorkloadConfig, part?: PartOfRun) {
  const module = await runnerOf(config);
  const stats = new RunStats(runRoles.groups(module, config as never), payloadBytesOf(config) ?? 0, clock);
  const ctx = {
    config: config as never,
    schema: '"pgbb_parts_test"',
    stats,
    pacer: new Pacer(partPacing(config, part), stats),
    writersStop: new Stopper(),
    readersStop: new Stopper(),
    targetUrl: "postgresql://127.0.0.1:1/unused",
    fatal: (e: Error) => assert.fail(e),
    log: () => undefined,
    footprint: new RunFootprint(),
    ...(part ? { part } : {}),
  };
  return { run: module.create(ctx), writers: module.writerCount(config as never, part) };
}

const sorted = (a: string[]) => [...a].sort();

/** One config over 1 … min(4, max) parts. */
async function splitsExactly(def: WorkloadDefinition, config: WorkloadConfig) {
  const parts = def.parts!;
  const max = parts.max(config as never);
  const whole = await instance(config);
  const pacing = partPacing(config);
  for (let n = 1; n <= Math.min(4, max); n++) {
    const ps = Array.from({ length: n }, (_, index) => ({ index, of: n }));
    const runs = await Promise.all(ps.map((p) => instance({ ...config, processes: n } as WorkloadConfig, p)));
    const what = `${JSON.stringify(config)} over ${n}`;
    assert.deepEqual(sorted(runs.flatMap((r) => r.run.roles)), sorted(whole.run.roles), `${what}: roles`);
    // Writers come first in a part's roles: its writers are the whole run's writers, each once.
    assert.deepEqual(sorted(runs.flatMap((r) => r.run.roles.slice(0, r.writers))), sorted(whole.run.roles.slice(0, whole.writers)), `${what}: writers`);
    const shares = ps.map((p) => parts.share(config as never, p));
    assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 1) < 1e-9, `${what}: shares ${shares.join(" + ")}`);
    const paced = ps.map((p) => partPacing({ ...config, processes: n } as WorkloadConfig, p));
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
}

/** Where it splits: its presets and its hooks' configs split exactly; one of them has room for 3 parts or more. */
export async function splitsOverParts(def: WorkloadDefinition, hooks: WorkloadHooks) {
  if (!def.parts) return;
  // The load is what splits: a long run's end rule (lib/workloads/long-run.ts), which keeps it in one process, is left out.
  const loadOf = ({ untilAutovacuums: _, minDurationSeconds: __, ...c }: Record<string, unknown>) => c;
  const configs = [...def.presets.map((p) => loadOf(p.config as Record<string, unknown>)), ...(hooks.splits ?? []).map((s) => ({ ...s, kind: def.kind }))].map(
    (c) => WorkloadConfig.parse(c),
  );
  assert.ok(
    configs.some((c) => def.parts!.max(c as never) >= 3),
    `${def.kind}: no preset and no config of its hooks' splits has room for 3 parts (add one to its testing.ts)`,
  );
  for (const c of configs) await splitsExactly(def, c);
}
