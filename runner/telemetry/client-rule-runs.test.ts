// The one client rule (lib/measurement/runner-load.ts CLIENT_RULE) on real runs against the embedded Postgres:
// a default-size queue run is not called client-bound on any surface (the summary's note and runner-load check,
// the verdict, the CLI, the run page), and a runner whose event loop is kept busy is, with the same words on
// each. The earlier rule flagged nearly every ordinary run (loop delay against 10% of a p99).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { LiveNumbers } from "../../components/run/LiveNumbers";
import { RunResult } from "../../components/run/RunResult";
import { clientReason, judgeClient, measuresOf } from "../../lib/measurement/runner-load";
import { RUNNER_ROLE_WORDS, runnerLoadOf } from "../../lib/measurement/headline";
import type { Sample } from "../../lib/measurement/sample";
import type { RunSummary } from "../../lib/measurement/summary";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import type { EngineOptions } from "../engine";
import { summaryText } from "../format";
import { runWorkload } from "../harness";

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("client_rule");
});
after(async () => {
  await db.drop();
});

async function run(input: WorkloadInput, extra: EngineOptions = {}): Promise<{ summary: RunSummary; samples: Sample[] }> {
  const samples: Sample[] = [];
  const summary = await runWorkload(WorkloadConfig.parse(input), db.url, {
    drainSeconds: 2,
    ...extra,
    onSample: (s) => {
      if (s.phase === "measuring") samples.push({ ...s, time: s.time.toISOString() });
      return extra.onSample?.(s);
    },
  });
  return { summary, samples };
}

/** Other processes below this share of the host's CPUs: the machine was otherwise idle for the run. */
const OTHERWISE_IDLE_SHARE = 0.1;

const clientFinding = (s: RunSummary) => s.telemetry?.verdict.findings.find((f) => f.category === "client-bound");
const page = (s: RunSummary) => renderToStaticMarkup(createElement(RunResult, { summary: s }));

/**
 * A run the client rule held for says so in the same words in its note, the CLI, the page and the verdict, by its
 * role: client-bound ("the runner was the limit") only when it was at its limit and the rate was missed (or none
 * asked); otherwise a caution on the latencies inside the one verdict, never a banner of its own.
 */
function sameWordsEverywhere(summary: RunSummary, note?: (s: string) => void) {
  const l = summary.runnerLoad!;
  const { role, text } = runnerLoadOf(summary);
  assert.notEqual(role, "none");
  const m = measuresOf(l);
  const reason = clientReason(judgeClient(m), m, role);
  note?.(`${role}: ${reason}`);
  assert.match(reason, /^the runner was (the limit|busy|starved of CPU) \(/);
  // The summary's note is the sentence; the CLI prints it and points to it; the page carries it inside the verdict.
  assert.ok(text && summary.notes?.includes(text), (summary.notes ?? []).join("\n"));
  if (role === "limit") assert.ok(text.startsWith(`client-bound: ${reason}`), text);
  else {
    assert.ok(text.startsWith("these latencies include up to ") && text.includes(reason), text);
    assert.doesNotMatch(text, /was the limit|client-bound/);
  }
  const cli = summaryText(summary, "embedded default");
  assert.ok(cli.includes(`note: ${text}`), cli);
  assert.ok(cli.includes(`→ ${RUNNER_ROLE_WORDS[role]} (see the note)`), cli);
  const html = page(summary);
  assert.doesNotMatch(html, /data-testid="client-bound"/, "no banner beside the verdict");
  assert.equal((html.match(/data-testid="verdict"/g) ?? []).length, 1, "one verdict");
  // The verdict's rule is the same rule on the same numbers: its finding holds exactly when the runner was the limit,
  // and its statement (when the runner is the headline) gives the same reason; otherwise its caution does.
  const v = summary.telemetry!.verdict;
  assert.equal(clientFinding(summary)?.matched, role === "limit", v.statement);
  if (role === "limit") {
    if (v.category === "client-bound") assert.ok(v.statement.startsWith(`client-bound: ${reason}`), v.statement);
    else assert.ok(v.also.includes("client-bound"), v.statement);
  } else {
    assert.ok(v.caution?.includes(reason), `${v.caution} / ${reason}`);
    assert.ok(html.includes('data-testid="verdict-caution"'), html);
  }
}

describe("one client rule on every surface", () => {
  test("a default-size queue run: not client-bound in the note, the verdict, the CLI or the page", async (t) => {
    const { summary } = await run({ kind: "queue", durationSeconds: 4, warmupSeconds: 1 });
    const l = summary.runnerLoad!;
    t.diagnostic(JSON.stringify(l));
    t.diagnostic(`host: ${JSON.stringify(summary.telemetry?.window?.host)}; verdict: ${summary.telemetry?.verdict.statement}`);
    assert.equal(l.rule, "starvation", "judged by the one client rule");
    assert.ok(l.judgedAgainst?.p50 !== undefined && l.eventLoopUtilization !== undefined, JSON.stringify(l));
    // The test needs the machine otherwise idle: when other processes took the CPU (a 2-core machine other work
    // fills), a runner that waited for a CPU is starved and says so; the surfaces must still agree.
    const h = summary.telemetry?.window?.host;
    const othersShare = h?.otherCpuCores !== undefined && h.cores > 0 ? h.otherCpuCores / h.cores : undefined;
    if (othersShare === undefined || othersShare >= OTHERWISE_IDLE_SHARE)
      t.diagnostic(
        `not an idle machine: other processes used ${othersShare === undefined ? "an unknown share" : `${Math.round(100 * othersShare)}%`} of the host's CPUs`,
      );
    else assert.equal(l.clientBound, false, JSON.stringify(l));
    // Every surface follows the same rule: the verdict's finding, the note, the CLI line, the page's verdict.
    if (l.clientBound) return sameWordsEverywhere(summary);
    assert.equal(clientFinding(summary)?.matched, false, JSON.stringify(clientFinding(summary)));
    assert.ok(!(summary.notes ?? []).some((n) => n.startsWith("client-bound") || n.startsWith("these latencies include")), (summary.notes ?? []).join("\n"));
    assert.notEqual(summary.telemetry?.verdict.category, "client-bound", summary.telemetry?.verdict.statement);
    const cli = summaryText(summary, "embedded default");
    assert.match(cli, /→ not client-bound$/m);
    assert.equal(summary.telemetry?.verdict.caution, undefined);
    assert.doesNotMatch(cli, /CLIENT-BOUND/);
    assert.doesNotMatch(page(summary), /data-testid="client-bound"/);
  });

  test("a runner whose event loop is kept busy: client-bound everywhere, in the same words", async (t) => {
    const { summary, samples } = await run(
      { kind: "queue", writers: 2, readers: 2, durationSeconds: 4, warmupSeconds: 1 },
      {
        // A busy-wait after each engine sample: the loops cannot send while it spins.
        onSample: () => {
          const end = performance.now() + 950;
          while (performance.now() < end);
        },
      },
    );
    const l = summary.runnerLoad!;
    t.diagnostic(JSON.stringify(l));
    assert.equal(l.clientBound, true, JSON.stringify(l));
    sameWordsEverywhere(summary, (s) => t.diagnostic(s));
    // The live line judges each second by the same rule: the spinning seconds are flagged.
    const live = samples
      .filter((s) => s.metrics.intervalSec > 0.5)
      .map((sample) => renderToStaticMarkup(createElement(LiveNumbers, { sample, workload: "queue" })));
    assert.ok(
      live.some((h) => h.includes('data-runner-caution="true"')),
      live.join("\n"),
    );
  });
});
