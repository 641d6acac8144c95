// Pub/sub over 2 parts (workloads/testing.ts driveParts): the coordinator's verify needs every group's reader of
// every partition from the parts' ledgers, once. A reader no part reported (its part's record lost) or reported
// twice must fail the run, never pass as "nothing to check".
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { testDatabase } from "../../lib/testing";
import type { Ledger } from "../runtime";
import { driveParts } from "../testing";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("pubsub_ledger");
});
after(async () => {
  await db.drop();
});

test("pub/sub over 2 parts: a group's reader missing from the ledgers, or reported twice, fails the verification", async () => {
  const d = await driveParts(db.url, { kind: "pubsub", writers: 4, partitions: 4, consumerGroups: 2, throttleWritesPerSec: 400 }, 2, (parts) =>
    parts.every((p) => p.stats.groups.every((g) => g.op("read").total.count >= 20)),
  );
  try {
    assert.equal(d.verification.ok, true, d.verification.problems.join("; "));
    const [l0, l1] = d.parts.map((p) => p.ledger);
    // Part 1's writes stay (the table's rows match), its readers' record is lost.
    const lost = await d.verifyWith([l0, { ...l1, readers: [], counted: {} } as Ledger]);
    assert.equal(lost.ok, false, "part 1's readers missing must fail the verification");
    assert.match(lost.problems.join("\n"), /group g0 partition 2: no part reported its reader/);
    // Part 0's readers reported a second time (a third ledger that wrote nothing).
    const zeros = (l0.written as number[]).map(() => 0);
    const twice = await d.verifyWith([l0, l1, { written: zeros, readers: l0.readers, counted: l0.counted } as Ledger]);
    assert.equal(twice.ok, false, "a reader reported twice must fail the verification");
    assert.match(twice.problems.join("\n"), /group g0 partition 1: 2 parts reported its reader/);
  } finally {
    await d.drop();
  }
});
