// The eight workloads of Yong's and DBOS's studies split into two parts on a real Postgres, driven in this one
// process as the coordinator and its part processes do (workloads/testing.ts driveParts): the coordinator's
// verify, from the parts' ledgers alone, accounts for every request, job, message, row and workflow of both
// parts (ids never collide, work one part started and the other finished is matched), and a missing part's
// ledger fails it. The same over two real processes: runner/parts/ (runWorkload with processes: 2).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { testDatabase } from "../lib/testing";
import type { RunStats } from "../runner/core";
import { type DrivenParts, driveParts } from "./testing";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("part_ledgers");
});
after(async () => {
  await db.drop();
});

const sum = (d: DrivenParts, f: (s: RunStats) => number) => d.parts.reduce((n, p) => n + f(p.stats), 0);
const ops = (s: RunStats, ...names: string[]) => names.reduce((n, name) => n + s.op(name).total.count, 0);
/** Every part has done at least `n` of what `f` counts. */
const each = (n: number, f: (s: RunStats) => number) => (parts: { stats: RunStats }[]) => parts.every((p) => f(p.stats) >= n);

async function check(d: DrivenParts, what: string) {
  try {
    assert.equal(d.verification.ok, true, `${what}: ${d.verification.problems.join("; ")}`);
    assert.deepEqual(d.verification.problems, []);
  } catch (e) {
    await d.drop();
    throw e;
  }
}

test("cache: every get and set of both parts checked; keys both parts set hold one of their last sets", async () => {
  const d = await driveParts(
    db.url,
    { kind: "cache", vus: 6, thinkMs: 0, pool: 4, keys: 50, readPercent: 50 },
    2,
    each(300, (s) => ops(s, "get", "set")),
  );
  await check(d, "cache");
  try {
    assert.equal(
      d.verification.checked,
      sum(d, (s) => ops(s, "get", "set")),
    );
    for (const p of d.parts) assert.ok(ops(p.stats, "set") > 0);
    // Without part 1's ledger, keys it set last hold values part 0 never wrote.
    const partial = await d.verifyWith([d.parts[0].ledger]);
    assert.equal(partial.ok, false);
    assert.match(partial.problems.join("; "), /hold a value that is not the last set/);
  } finally {
    await d.drop();
  }
});

test("jobqueue: every job either part's producers inserted is accounted for, whichever part's consumer took it", async () => {
  const d = await driveParts(
    db.url,
    { kind: "jobqueue", producers: 2, consumers: 2, thinkMs: 0, pool: 4 },
    2,
    each(100, (s) => ops(s, "enqueue")),
  );
  await check(d, "jobqueue");
  try {
    assert.equal(
      d.verification.checked,
      sum(d, (s) => ops(s, "enqueue")),
    );
    assert.equal((await d.verifyWith([d.parts[1].ledger])).ok, false, "part 0's jobs are foreign without its ledger");
  } finally {
    await d.drop();
  }
});

test("search: both parts' answers checked against the corpus the coordinator loaded (each part generates the same)", async () => {
  const d = await driveParts(
    db.url,
    { kind: "search", vus: 2, thinkMs: 0, pool: 2, articles: 300 },
    2,
    each(20, (s) => ops(s, "search")),
  );
  await check(d, "search");
  try {
    assert.match(d.verification.facts.find((f) => f.name.startsWith("searches with"))?.value.toString() ?? "", /^0$/);
    const searches = sum(d, (s) => ops(s, "search"));
    assert.ok(d.verification.facts.length > 0 && searches >= 40);
  } finally {
    await d.drop();
  }
});

for (const variant of ["baseline", "modded"] as const)
  test(`notify (${variant}): part 0's subscriber receives every message of both parts' publishers exactly once`, async () => {
    const d = await driveParts(
      db.url,
      { kind: "notify", variant, vus: 4, thinkMs: 0, pool: 2 },
      2,
      each(60, (s) => ops(s, "publish")),
    );
    await check(d, `notify ${variant}`);
    try {
      assert.equal(
        d.verification.checked,
        sum(d, (s) => ops(s, "publish")),
      );
      assert.deepEqual(
        d.parts.map((p) => p.run.roles.includes("subscriber")),
        [true, false],
      );
    } finally {
      await d.drop();
    }
  });

test("notify open loop: one publisher per part, both received", async () => {
  const d = await driveParts(
    db.url,
    { kind: "notify", load: "rate", rate: 200, pool: 2 },
    2,
    each(60, (s) => ops(s, "publish")),
  );
  await check(d, "notify open loop");
  try {
    assert.equal(
      d.verification.checked,
      sum(d, (s) => ops(s, "publish")),
    );
  } finally {
    await d.drop();
  }
});

test("mixed: the four workloads' ledgers of both parts, each checked", async () => {
  const d = await driveParts(
    db.url,
    { kind: "mixed", cacheVus: 2, searchVus: 2, notifyVus: 2, producers: 2, consumers: 2, thinkMs: 0, pool: 4, articles: 300 },
    2,
    each(200, (s) => ops(s, "total")),
  );
  await check(d, "mixed");
  await d.drop();
});

test("inserts: the rows in the table are both parts' inserts", async () => {
  const d = await driveParts(
    db.url,
    { kind: "inserts", rate: 400, connections: 4, batchSize: 10 },
    2,
    each(100, (s) => s.op("write").total.count),
  );
  await check(d, "inserts");
  try {
    assert.equal(
      d.verification.checked,
      sum(d, (s) => s.op("write").total.count),
    );
    const partial = await d.verifyWith([d.parts[0].ledger]);
    assert.match(partial.problems.join("; "), /bench_inserts holds \d+ rows but \d+ inserts were counted/);
  } finally {
    await d.drop();
  }
});

test("workflows: every workflow both parts started and completed is in workflow_status", async () => {
  const d = await driveParts(
    db.url,
    { kind: "workflows", rate: 200, connections: 4 },
    2,
    each(60, (s) => ops(s, "workflow")),
  );
  await check(d, "workflows");
  try {
    assert.equal(
      d.verification.facts.find((f) => f.name === "completions committed")?.value,
      sum(d, (s) => ops(s, "workflow")),
    );
    assert.equal((await d.verifyWith([d.parts[1].ledger])).ok, false);
  } finally {
    await d.drop();
  }
});

for (const profile of ["2.17", "current"] as const)
  test(`queued workflows (${profile}): a workflow one part enqueued and the other completed is matched; none lost or run twice`, async () => {
    const d = await driveParts(
      db.url,
      { kind: "queued-workflows", profile, enqueuers: 2, workers: 2, executors: 2, throttleWritesPerSec: 300, pollMs: 50 },
      2,
      each(150, (s) => s.groups[0].op("read").total.count),
    );
    await check(d, "queued workflows");
    try {
      assert.equal(
        d.verification.checked,
        sum(d, (s) => s.op("write").total.count),
      );
      // Both parts' workers poll the one queue: some of each part's workflows were completed by the other.
      const crossed = /(\d[\d,]*) workflows? (?:were|was) completed by another process/.exec(d.coordinator.notes.join("\n"));
      assert.ok(crossed && Number(crossed[1].replace(/,/g, "")) > 0, d.coordinator.notes.join("\n"));
      const partial = await d.verifyWith([d.parts[0].ledger]);
      assert.equal(partial.ok, false);
    } finally {
      await d.drop();
    }
  });
