// Every target rate judged, per workload, on real runs against the embedded Postgres (lib/telemetry/pace-rules.ts):
// a rate met with the server's headroom is rate-bound (not client-, connection-bound or autovacuum pressure),
// whatever declared it: cache's open-loop request rate (--rate), workflows' open-loop rate, queued workflows'
// enqueue throttle. A closed-loop run says it was asked no rate. (inserts at 200/s: ./pace-verdict.test.ts.)
import { explainVerdict, evidenceOf } from "../../lib/telemetry/testing";
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { RunSummary } from "../../lib/measurement/summary";
import { testDatabase } from "../../lib/testing";
import type { Verdict } from "../../lib/telemetry/verdict";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload, summaryText } from "../harness";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("rate_verdict");
});
after(async () => {
  await db.drop();
});

async function judged(input: WorkloadInput): Promise<{ summary: RunSummary; verdict: Verdict }> {
  const summary = await runWorkload(WorkloadConfig.parse(input), db.url, { drainSeconds: 2 });
  assert.ok(summary.telemetry, "the summary carries the telemetry");
  return { summary, verdict: summary.telemetry.verdict };
}

const explain = explainVerdict;
const evidence = evidenceOf;

/**
 * The rate was met and called so, with its numbers, in the verdict and in the CLI's "why this number". On a machine
 * other test files fill, the run may fall a few percent short: then it must not be called rate-bound, and the
 * verdict must say the rate was missed and what the host or the runner did (the honest answer there); or the rate is
 * met but the consumers fell behind it, and the verdict names the backlog and what starved the runner.
 */
function assertRateBound(summary: RunSummary, v: Verdict, what: string, asked: RegExp) {
  if (evidence(v, "rate-bound", what)! < 0.95 && ["host-bound", "client-bound"].includes(v.category)) {
    assert.match(v.statement, /behind schedule: .* reached [\d,.]+ of the [\d,]+ [a-z]+\/s asked/, explain(v));
    return;
  }
  // The rate met while the runner, short of CPU, completed less than it enqueued (CI's shared machine: the runner
  // waited 813 ms/s for a CPU): the backlog is the headline and the starved runner is named beside it.
  if (v.category === "consumers-behind" && v.also.some((c) => c === "host-bound" || c === "client-bound")) {
    assert.match(v.statement, /; (host-bound|client-bound): /, explain(v));
    return;
  }
  assert.equal(v.category, "rate-bound", explain(v));
  assert.ok(evidence(v, "rate-bound", what)! >= 0.95, explain(v));
  assert.match(v.statement, asked, v.statement);
  assert.match(summaryText(summary, "embedded default"), /^why this number: rate-bound: /m);
}

describe("every target rate is judged, per workload", () => {
  test("cache, open loop at 100 req/s: rate-bound", async (t) => {
    const { summary, verdict } = await judged({ kind: "cache", load: "rate", rate: 100, durationSeconds: 4, warmupSeconds: 1 });
    t.diagnostic(verdict.statement);
    assertRateBound(summary, verdict, "requests achieved / rate asked", /of the 100 req\/s asked/);
  });

  // (The audit's run was at 500/s; 100/s is met even while other test files share this machine's two cores.)
  test("workflows, open loop at 100/s: rate-bound", async (t) => {
    const { summary, verdict } = await judged({ kind: "workflows", rate: 100, durationSeconds: 4, warmupSeconds: 1 });
    t.diagnostic(verdict.statement);
    assertRateBound(summary, verdict, "workflows achieved / rate asked", /of the 100 workflow\/s asked/);
  });

  test("queued workflows under an enqueue throttle of 200/s: rate-bound", async (t) => {
    const { summary, verdict } = await judged({ kind: "queued-workflows", throttleWritesPerSec: 200, durationSeconds: 4, warmupSeconds: 1 });
    t.diagnostic(verdict.statement);
    assertRateBound(summary, verdict, "enqueues achieved / rate asked", /of the 200 workflow\/s asked/);
  });

  test("a closed-loop cache run without think time: no rate asked, never rate-bound, and the CLI says so", async (t) => {
    const { summary, verdict } = await judged({ kind: "cache", load: "vus", vus: 4, thinkMs: 0, durationSeconds: 3, warmupSeconds: 1 });
    t.diagnostic(verdict.statement);
    assert.notEqual(verdict.category, "rate-bound", explain(verdict));
    assert.notEqual(verdict.category, "behind-schedule", explain(verdict));
    const f = verdict.findings.find((x) => x.category === "rate-bound")!;
    assert.equal(f.matched, false);
    assert.match(f.evidence[0]?.what ?? "", /^no rate asked \(closed-loop\): requests achieved$/, explain(verdict));
    assert.ok(f.evidence[0].value > 0);
    assert.match(summaryText(summary, "embedded default"), /^ {2}pace: no rate asked \(closed-loop\): requests achieved [\d,.]+ req\/s$/m);
  });
});
