// Two real runs of the queue workload on the embedded target, merged as two parts of one run
// (lib/measurement/merge-summaries.ts): every count adds, and the merged percentiles are those of the added histograms.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { decodeHistogram, encodeHistogram, mergeEncoded, percentilesOf } from "../lib/measurement/histogram";
import { mergeSummaries } from "../lib/measurement/merge-summaries";
import { RunSummary } from "../lib/measurement/summary";
import { testDatabase } from "../lib/testing";
import { WorkloadConfig } from "../lib/workloads/config";
import { runWorkload, verificationError } from "./engine";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("merge-parts");
});
after(async () => {
  await db.drop();
});

test("two real queue runs merged as parts: counts and totals add, p99 is the added histograms' p99, verification covers both", async () => {
  const config = WorkloadConfig.parse({ kind: "queue", writers: 2, readers: 2, durationSeconds: 1, warmupSeconds: 0, throttleWritesPerSec: 300 });
  const [a, b] = await Promise.all([runWorkload(config, db.url, { drainSeconds: 3 }), runWorkload(config, db.url, { drainSeconds: 3 })]);
  for (const s of [a, b]) assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  const part = (i: number, summary: RunSummary, skewMs: number) => ({
    runId: "queue-2",
    part: i,
    parts: 2,
    host: `host-${i}`,
    pid: 1000 + i,
    startSkewMs: skewMs,
    clockOffsetMs: 0,
    summary,
  });
  const m = mergeSummaries([part(0, a, 0), part(1, b, 4)]);
  RunSummary.parse(m);

  const names = Object.keys(a.operations);
  assert.ok(names.includes("write") && names.includes("read"), names.join(", "));
  for (const name of names) {
    const [x, y, z] = [a.operations[name], b.operations[name], m.operations[name]];
    assert.equal(z.count, x.count + y.count, `${name} count`);
    assert.equal(z.errors, x.errors + y.errors, `${name} errors`);
    assert.equal(z.perSecond, z.count / m.window.measuredSeconds, `${name} rate over the run's window`);
    // A kind one part never measured (no reads of it in its window, as a part on a busy machine may have) adds nothing.
    const kinds = new Set([...Object.keys(a.histograms[name] ?? {}), ...Object.keys(b.histograms[name] ?? {})]) as Set<"fromSend">;
    for (const kind of kinds) {
      const added = mergeEncoded([a.histograms[name]?.[kind], b.histograms[name]?.[kind]].filter((e) => e !== undefined));
      assert.deepEqual(z.latency[kind as "fromSend"], percentilesOf(added), `${name} ${kind}: the added histograms' percentiles`);
      assert.equal(m.histograms[name]![kind as "fromSend"], encodeHistogram(decodeHistogram(encodeHistogram(added))), `${name} ${kind} re-encoded`);
    }
  }
  assert.ok(m.operations.write.latency.fromSend!.p99 > 0);
  assert.equal(m.groups?.[0].operations.read.count, a.groups![0].operations.read.count + b.groups![0].operations.read.count, "the queue group's reads");
  for (const [k, v] of Object.entries(a.totals!.operations)) assert.equal(m.totals!.operations[k], v + b.totals!.operations[k], `total ${k}`);
  assert.equal(m.totals!.measures.unreadAtEnd, a.totals!.measures.unreadAtEnd + b.totals!.measures.unreadAtEnd);
  assert.equal(m.totals!.measures.drainSeconds, Math.max(a.totals!.measures.drainSeconds, b.totals!.measures.drainSeconds));
  // The window: from the first part's measuring start to the last part's end (part 1 started 4 ms late).
  const want = Math.max(a.window.measuredSeconds, 0.004 + b.window.measuredSeconds);
  assert.ok(Math.abs(m.window.measuredSeconds - want) < 1e-9, `${m.window.measuredSeconds} vs ${want}`);
  assert.deepEqual([m.verification.ok, m.verification.checked], [true, a.verification.checked + b.verification.checked]);
  for (const f of m.verification.facts)
    if (typeof f.value === "number") {
      const of = (s: RunSummary) => s.verification.facts.find((g) => g.name === f.name)!.value as number;
      assert.equal(f.value, of(a) + of(b), f.name);
    }
  assert.deepEqual(
    m.manifest.parts?.map((p) => [p.part, p.host, p.pid, p.startSkewMs]),
    [
      [0, "host-0", 1000, 0],
      [1, "host-1", 1001, 4],
    ],
  );
  const worst = m.manifest.worstPart;
  assert.ok(worst === 0 || worst === 1, "the worst-loaded part is named");
  assert.deepEqual(m.runnerLoad, [a, b][worst].runnerLoad, "the run's runner load is the worst part's");
  assert.equal(m.manifest.runnerHost, "host-0, host-1");
  assert.ok(Math.abs(m.manifest.runnerCpuSeconds - (a.manifest.runnerCpuSeconds + b.manifest.runnerCpuSeconds)) < 0.002);
  assert.throws(() => mergeSummaries([part(0, a, 0), { ...part(1, b, 4), runId: "other" }]), /part 1 is of run other, part 0 of run queue-2/);
  const refused = (s: unknown, re: RegExp) => assert.throws(() => mergeSummaries([part(0, a, 0), part(1, s as RunSummary, 4)]), re);
  refused({ ...b, histograms: {} }, /part 1's write has fromSend percentiles but no histogram: it cannot be merged exactly/);
  refused({ ...b, totals: { ...b.totals, measures: { lagged: 1 } } }, /part 1's total "lagged" has no declared rule/);
  refused({ ...b, workload: "pubsub" }, /part 1 ran pubsub, part 0 queue/);
  const share = { ...b, config: { ...b.config, writers: 1 } };
  refused(share, /part 1 ran another config than part 0: give the run's config/);
  assert.deepEqual(mergeSummaries([part(0, a, 0), part(1, share, 4)], { config }).config, config, "the run's config, given");
  assert.throws(() => mergeSummaries([part(0, a, 0), { ...part(1, b, 4), pid: 0 }]), /part at position 1: its summary is not valid \(pid/);
});

test("two real pub/sub runs of 2 groups merged: each group's reads add and its percentiles are its added histograms'", async () => {
  const config = WorkloadConfig.parse({
    kind: "pubsub",
    writers: 2,
    partitions: 2,
    consumerGroups: 2,
    writeBatch: 10,
    readBatch: 50,
    durationSeconds: 1,
    warmupSeconds: 0,
    throttleWritesPerSec: 400,
  });
  const [a, b] = await Promise.all([runWorkload(config, db.url, { drainSeconds: 3 }), runWorkload(config, db.url, { drainSeconds: 3 })]);
  const part = (i: number, summary: RunSummary) => ({ runId: "ps", part: i, parts: 2, host: "h", pid: 1 + i, startSkewMs: 0, clockOffsetMs: 0, summary });
  const m = mergeSummaries([part(0, a), part(1, b)]);
  assert.deepEqual(
    m.groups?.map((g) => g.group),
    ["g0", "g1"],
  );
  for (const [i, g] of (m.groups ?? []).entries()) {
    const [x, y] = [a.groups![i], b.groups![i]];
    assert.equal(g.operations.read.count, x.operations.read.count + y.operations.read.count, `${g.group} reads`);
    assert.ok(Object.keys(x.histograms ?? {}).length > 0 && g.histograms, `${g.group} has its own histograms`);
    for (const [name, kinds] of Object.entries(x.histograms ?? {}))
      for (const [kind, enc] of Object.entries(kinds))
        assert.deepEqual(
          g.operations[name].latency[kind as "fromSend"],
          percentilesOf(mergeEncoded([enc!, y.histograms![name]![kind as "fromSend"]!])),
          `${g.group} ${name} ${kind}`,
        );
  }
  assert.equal(m.manifest.runnerHost, "h", "one host named once");
  assert.equal(m.verification.ok, true, m.verification.problems.join("; "));
});
