// One headline, on real runs against the embedded Postgres (issue 29, "One headline"):
//   a met rate beside a CPU hog   the runner pinned to one CPU with busy loops: it is starved, yet the rate asked is
//                                 met. The verdict is the rate's (or the server's), with the runner's delay as a
//                                 caution on the latencies inside it; never "client-bound", never "the runner was
//                                 the limit", on the verdict, the note, the CLI or the page (one verdict, no banner).
//   readers that fell behind      pub/sub with one reader claiming one message at a time against unthrottled
//                                 writers: the headline says the consumers fell behind with the backlog, and the
//                                 verification says nothing was lost AND that they did not keep up (not a green
//                                 "passed" alone), on the page and the CLI.
import { explainVerdict } from "../../lib/telemetry/testing";
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { RunResult } from "../../components/run/RunResult";
import { keepUpOf, rateMetOf, runnerLoadOf } from "../../lib/measurement/headline";
import type { RunSummary } from "../../lib/measurement/summary";
import { type CpuHogs, cpuHogs, testDatabase } from "../../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload } from "../engine";
import { summaryText } from "../format";

const explain = explainVerdict;

const page = (s: RunSummary) => renderToStaticMarkup(createElement(RunResult, { summary: s }));
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

let db: { url: string; drop: () => Promise<void> };
before(async () => {
  db = await testDatabase("headline");
});
after(async () => {
  await db?.drop();
});

const run = (input: WorkloadInput) => runWorkload(WorkloadConfig.parse(input), db.url, { drainSeconds: 2 });

/** The page carries one verdict and no banner of the runner's beside it. */
function oneVerdict(html: string) {
  assert.equal((html.match(/data-testid="verdict"/g) ?? []).length, 1, "one verdict");
  assert.equal((html.match(/data-testid="verdict-category"/g) ?? []).length, 1, "one category");
  assert.doesNotMatch(html, /data-testid="client-bound"/, "no Client-bound banner");
}

describe("a met rate beside CPU hogs pinned with the runner", () => {
  let hogs: CpuHogs;
  before(async () => {
    hogs = await cpuHogs(6);
  });
  after(() => hogs?.stop());

  test("the verdict is the rate's or the server's, with the runner's delay a caution inside it; never client-bound", async (t) => {
    // A rate far below what this machine does, so the starved runner still meets it.
    const summary = await run({ kind: "queue", writers: 1, readers: 1, throttleWritesPerSec: 100, durationSeconds: 6, warmupSeconds: 1 } as WorkloadInput);
    const v = summary.telemetry!.verdict;
    const l = summary.runnerLoad!;
    t.diagnostic(`${v.statement}\nrunner: ${JSON.stringify(l)}`);
    // What was provoked: the rate asked was met while the runner was starved (it waited for a CPU, its loop delayed
    // by at least the operation's own time) or busy: the client rule held.
    assert.equal(rateMetOf(summary.config, summary), true, explain(v));
    assert.ok(l.runQueueWaitMsPerSec! >= 100, `the runner waited ${l.runQueueWaitMsPerSec} ms/s for a CPU`);
    assert.equal(l.clientBound, true, `the client rule held: ${JSON.stringify(l)}`);
    // The verdict: not client-bound (a runner does not limit a rate that was met), its load a caution inside it.
    assert.notEqual(v.category, "client-bound", explain(v));
    assert.equal(v.findings.find((f) => f.category === "client-bound")?.matched, false, explain(v));
    assert.match(
      v.caution ?? "",
      /^these latencies include up to [\d.]+ m?s of the runner's own delay: the runner was (starved of CPU|busy) \(.*\), and the rate asked was met/,
    );
    assert.ok(v.statement.endsWith(`; ${v.caution}`), v.statement);
    // The same role on every surface: the note, the CLI, the page; "the limit" nowhere.
    const runner = runnerLoadOf(summary);
    assert.equal(runner.role, "caution");
    assert.ok(summary.notes?.includes(runner.text!), (summary.notes ?? []).join("\n"));
    const cli = summaryText(summary, "embedded default");
    const html = page(summary);
    for (const out of [v.statement, cli, text(html)]) {
      assert.doesNotMatch(out, /the runner was the limit|CLIENT-BOUND|^client-bound:/m, out);
      assert.match(out, /these latencies include up to [\d.]+ m?s of the runner's own delay/);
    }
    assert.match(cli, /→ its delay is in the latencies \(a caution, not the limit\) \(see the note\)/);
    oneVerdict(html);
    assert.match(html, /data-testid="verdict-caution"/);
    // Shown once: inside the verdict, not again among the notes.
    assert.equal((text(html).match(/latencies include up to/g) ?? []).length, 1, text(html));
  });
});

describe("readers that fell behind", () => {
  test("the headline says the consumers fell behind, with the backlog; the verification says nothing was lost and that they did not keep up", async (t) => {
    // One reader claiming one message at a time against writers batching 100: the reads fall far behind.
    const summary = await run({ kind: "pubsub", partitions: 1, readBatch: 1, durationSeconds: 6, warmupSeconds: 1 } as WorkloadInput);
    const v = summary.telemetry!.verdict;
    const keep = keepUpOf(summary)!;
    t.diagnostic(`${v.statement}\n${keep.text}`);
    // What was provoked: reads well under writes, a backlog left unread, and nothing lost.
    assert.ok(keep.readPerSec < 0.8 * keep.writePerSec, `read ${keep.readPerSec} of ${keep.writePerSec}`);
    assert.ok((summary.totals?.measures.unreadAtEnd ?? 0) > 0, "messages left unread after the drain");
    assert.equal(summary.verification.ok, true, summary.verification.problems.join("; "));
    // The headline leads with it (or, when a runner at its limit or a server-side limit held, names it beside).
    assert.ok(
      v.category === "consumers-behind" || /consumers behind: (the readers' round trips set their pace: [^;]+; )?the consumers took/.test(v.statement),
      explain(v),
    );
    assert.match(v.statement, /the backlog grew [\d,.]+ msg\/s to [\d,.]+ at the window's end, [\d,]+ unread after the drain/);
    // The verification: not "passed" alone.
    assert.equal(keep.keptUp, false);
    const unread = (summary.totals!.measures.unreadAtEnd ?? 0).toLocaleString("en-US");
    assert.match(keep.text, new RegExp(`^the consumers fell behind: read [\\d,]+ of [\\d,]+ msg/s written, ${unread} msgs unread at the end$`));
    const html = page(summary);
    oneVerdict(html);
    const kpi = html.match(/<div class="kpi panel" data-testid="kpi-verification"[^>]*>(.*?)<\/div>/)![0];
    assert.match(kpi, /data-kept-up="false"/);
    assert.match(kpi, /badge warn" data-testid="kpi-verified">nothing lost</);
    assert.match(kpi, /consumers behind/);
    assert.ok(text(kpi).includes(keep.text), text(kpi));
    assert.doesNotMatch(kpi, /badge ok/, "no green badge on a run that did not keep up");
    const panel = html.match(/<div class="alert [a-z]+" data-testid="verification"[^>]*>/)![0];
    assert.match(panel, /alert warn/, "the verification panel is not green");
    assert.ok(text(html).includes(`Verification passed: nothing lost, but ${keep.text}.`), text(html));
    const cli = summaryText(summary, "embedded default");
    assert.match(cli, /^verification: OK \(nothing lost\): /m);
    assert.ok(cli.includes(`consumers: NOT KEPT UP: ${keep.text}`), cli);
  });
});
