// exercise(): verification catches what the workload promises to catch. A short run driven in this process
// (workloads/testing.ts driveParts, one part), verified ok; then each promised fault is provoked on the finished
// run by the workload's own hook (workloads/<kind>/testing.ts: an item deleted or re-inserted on the target, or
// the ledgers its verifier reads doctored) and verify() must report it: a problem of its own words, new with it.
import assert from "node:assert/strict";
import pg from "pg";
import { FAULTS, type WorkloadHooks } from "../hooks";
import { driveParts } from "../testing";
import type { WorkloadDefinition } from "../types";
import { shortConfig } from "./runs";

/** How long the driven run's loops run at least before they are stopped (and until its hooks' `driven` holds): enough
 *  for a few dozen items. */
const DRIVE_MS = 1000;

export async function faultsCaught(def: WorkloadDefinition, hooks: WorkloadHooks, url: string) {
  const promised = FAULTS.filter((f) => hooks.faults[f]);
  if (!promised.length) return;
  const until = Date.now() + DRIVE_MS;
  const driven = await driveParts(
    url,
    shortConfig(def, hooks) as never,
    1,
    (parts) => Date.now() > until && parts.every((p) => hooks.driven?.(p.stats) ?? true),
  );
  const admin = new pg.Client({ connectionString: url });
  try {
    await admin.connect();
    assert.equal(driven.verification.ok, true, `${def.kind}: ${driven.verification.problems.join("; ")}`);
    let ledgers = driven.parts.map((p) => p.ledger);
    let before = new Set<string>();
    for (const fault of promised) {
      const hook = hooks.faults[fault]!;
      ledgers = (await hook.provoke({ admin, schema: driven.schema, ledgers })) ?? ledgers;
      const v = await driven.verifyWith(ledgers);
      const fresh = v.problems.filter((p) => !before.has(p));
      assert.equal(v.ok, false, `${def.kind}: a ${fault} provoked, verification still passes`);
      assert.ok(
        fresh.some((p) => hook.problem.test(p)),
        `${def.kind}: a ${fault} provoked, verification reports ${JSON.stringify(fresh)}, none like ${hook.problem}`,
      );
      before = new Set(v.problems);
    }
  } finally {
    await admin.end();
    await driven.drop();
  }
}
