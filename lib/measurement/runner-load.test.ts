// The client-bound rule: when the runner's own delay is large enough to be part of the latencies it reports.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { LiveNumbers } from "../../components/run/LiveNumbers";
import { ManifestPanel, RunResult } from "../../components/run/RunResult";
import { isLocalAddress } from "../../runner/engine";
import { liveLine, summaryText } from "../../runner/format";
import { fromRun } from "../compare/build";
import { PROJECT_ROOT } from "../paths";
import { exposedDelayMs, judgeClient, loadOverSamples, runnerLoadText, runnerRole } from "./runner-load";
import { Sample } from "./sample";
import { RunSummary } from "./summary";

test("a stall once a second counts by the time it covers, not by how many loop samples it is", () => {
  // 100 ms stalls in each of 10 seconds: a tenth of the time, so a latency's p99 carries them whole, although
  // they are 1 loop sample in ~90 and the count-based p99 is 0.4 ms.
  assert.equal(exposedDelayMs(0.4, Array(10).fill(100), 10_000), 100);
  // One 30 ms GC pause in 30 s covers 0.1% of the time: only the count-based p99 remains.
  assert.equal(exposedDelayMs(0.4, [30, ...Array(29).fill(2)], 30_000), 0.4);
  // A loop busy all the time: many delays, a high count-based p99.
  assert.equal(exposedDelayMs(12, Array(5).fill(15), 5000), 15);
  assert.equal(exposedDelayMs(12, [], 5000), 12);
});

test("one client rule: saturated (CPU or loop at the limit) or starved (waited for a CPU and delayed by an operation's own time)", () => {
  const bound = (m: Parameters<typeof judgeClient>[0]) => judgeClient(m).bound;
  assert.equal(bound({ cpuCores: 0.95 }), true, "a core all but busy");
  assert.equal(bound({ cpuCores: 0.3, eventLoopUtilization: 0.95, runQueueWaitMsPerSec: 5 }), true, "a loop busy while it had the CPU");
  const preempted = judgeClient({ cpuCores: 0.3, eventLoopUtilization: 0.95, runQueueWaitMsPerSec: 400 });
  assert.deepEqual([preempted.saturated, preempted.starved], [false, true], "a loop busy because preempted is starved, not saturated");
  assert.equal(
    bound({ cpuCores: 0.2, runQueueWaitMsPerSec: 150, exposedDelayMs: 8, serviceMs: 2 }),
    true,
    "starved: waited 150 ms/s, delayed 4× its service time",
  );
  assert.equal(bound({ cpuCores: 0.2, runQueueWaitMsPerSec: 20, exposedDelayMs: 8, serviceMs: 2 }), false, "a delay without waiting for a CPU: not starvation");
  assert.equal(bound({ cpuCores: 0.2, runQueueWaitMsPerSec: 150, exposedDelayMs: 1.5, serviceMs: 2 }), false, "a delay under the operation's own time");
  assert.equal(bound({ cpuCores: 0.2, runQueueWaitMsPerSec: 150, exposedDelayMs: 0.5, serviceMs: 0.1 }), false, "under 1 ms is timer noise");
  // The issue's case: a 100 ms stall against a 75 ms p99 was flagged by the share of a p99; the operation's own 20 ms is what counts now.
  assert.equal(bound({ cpuCores: 0.15, runQueueWaitMsPerSec: 30, exposedDelayMs: 100, serviceMs: 20 }), false);
});

test("the sentence names the numbers that held; a run stored under the earlier rule says so", () => {
  const l = {
    loopDelayMs: { p50: 0.2, p99: 0.6, max: 104.2 },
    exposedDelayMs: 12,
    cpuCores: 0.32,
    maxCpuCores: 0.4,
    eventLoopUtilization: 0.4,
    runQueueWaitMsPerSec: 240,
    clientBound: true,
    judgedAgainst: { metric: "write", p99: 75, p50: 1.5 },
    rule: "starvation" as const,
  };
  // Starved: a caution on the latencies whatever the rate, never "the limit".
  const starved =
    "these latencies include up to 104 ms of the runner's own delay: the runner was starved of CPU (it waited 240 ms/s for a CPU, its event-loop delay (12 ms) reached 8× the operation's own 1.5 ms)";
  assert.equal(runnerLoadText(l, undefined), `${starved}. Run the runner on a less loaded machine before reading the latencies as the database's`);
  assert.equal(
    runnerLoadText(l, true),
    `${starved}, and the rate asked was met: the runner did not limit it. Run the runner on a less loaded machine before reading the latencies as the database's`,
  );
  assert.ok(!runnerLoadText(l, false)!.includes("was the limit"));
  // At its limit (97% of a core): the limit when the rate was missed or none was asked, "busy" when it was met.
  const busy = { ...l, cpuCores: 0.97, runQueueWaitMsPerSec: 10 };
  assert.match(
    runnerLoadText(busy, false)!,
    /^client-bound: the runner was the limit \(its CPU reached 97% of one core.*\) and the rate asked was missed; these latencies include up to 104 ms/,
  );
  assert.match(runnerLoadText(busy, undefined)!, /^client-bound: the runner was the limit \(its CPU reached 97% of one core/);
  assert.match(
    runnerLoadText(busy, true)!,
    /^these latencies include up to 104 ms of the runner's own delay: the runner was busy \(its CPU reached 97% of one core.*\), and the rate asked was met/,
  );
  assert.equal(runnerRole(judgeClient({ cpuCores: 0.97 }), true), "caution");
  assert.equal(runnerRole(judgeClient({ cpuCores: 0.97 }), false), "limit");
  assert.equal(runnerRole(judgeClient({ cpuCores: 0.2, runQueueWaitMsPerSec: 300, exposedDelayMs: 12, serviceMs: 1 }), false), "caution");
  assert.equal(runnerRole(judgeClient({ cpuCores: 0.2 }), false), "none");
  assert.equal(runnerLoadText({ ...l, cpuCores: 0.2, runQueueWaitMsPerSec: 10 }, false), undefined);
  const { rule: _, ...old } = l;
  assert.match(
    runnerLoadText({ ...old, judgedAgainst: { metric: "write", p99: 75 } }, undefined)!,
    /^these latencies include up to 104 ms of the runner's own delay \(.*\); as stored, by the earlier rule \(loop delay against 10% of a p99\)/,
  );
});

// A run recorded with a busy-wait injected into its runner (fixtures/README.md), flagged by the earlier rule (loop
// delay against a p99): every surface says its latencies carry the runner's delay, a caution, as stored.
const recorded = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures/client-bound-run.json"), "utf8")).run;
const summary = RunSummary.parse(recorded.summary);

test("a recorded run flagged by the earlier rule: the finished page, the live numbers, the CLI and compare all give the caution", () => {
  assert.equal(summary.runnerLoad?.clientBound, true);
  const page = renderToStaticMarkup(createElement(RunResult, { summary }));
  // Stored before the one client rule: its flag is shown as stored, labelled so, inside the one verdict (no banner).
  assert.match(
    page,
    /data-testid="verdict-caution"[^>]*>Caution: these latencies include up to \d+ ms of the runner&#x27;s own delay \(.*\); as stored, by the earlier rule/,
  );
  assert.doesNotMatch(page, /data-testid="client-bound"/);
  assert.equal((page.match(/data-testid="verdict"/g) ?? []).length, 1, "one verdict");
  assert.equal((page.match(/latencies include up to/g) ?? []).length, 1, "the caution once, not again among the notes");
  const manifest = renderToStaticMarkup(createElement(ManifestPanel, { summary }));
  assert.match(manifest, /its delay is in the latencies \(a caution, not the limit\)/);
  assert.match(manifest, /on the runner&#x27;s own machine \(127\.0\.0\.1\)/);
  const sample = Sample.parse(recorded.samples.find((s: { phase: string }) => s.phase === "measuring"));
  const live = renderToStaticMarkup(createElement(LiveNumbers, { sample, workload: "queue" }));
  assert.match(live, /data-runner-caution="true"/);
  assert.match(live, /Caution, the runner’s own delay this second/);
  assert.doesNotMatch(live, /Client-bound/);
  const cli = summaryText(summary, "embedded default");
  // The note as stored (its words are the earlier rule's); the runner line by today's role.
  assert.match(cli, /^note: client-bound: these latencies include up to \d+ ms of the runner's own delay/m);
  assert.match(cli, /→ its delay is in the latencies \(a caution, not the limit\) \(see the note\) \(as stored, by the earlier rule\)/);
  const c = fromRun({ ...recorded, createdAt: recorded.createdAt });
  assert.ok(
    c.facts.flags.some((f) => f.startsWith("these latencies include up to") && f.includes("as stored, by the earlier rule")),
    c.facts.flags.join("\n"),
  );
});

test("runs recorded before the runner's load was measured: no verdict, no row, nothing made up", () => {
  const { runnerLoad: _, ...old } = summary;
  const page = renderToStaticMarkup(createElement(RunResult, { summary: { ...old, notes: [] } }));
  assert.doesNotMatch(page, /client-bound/i);
  assert.doesNotMatch(renderToStaticMarkup(createElement(ManifestPanel, { summary: old })), /runner load/);
});

test("the manifest's 'target on the runner's machine': loopback and Unix sockets are, another host's address is not", () => {
  assert.equal(isLocalAddress(null), true, "a Unix socket");
  assert.equal(isLocalAddress("127.0.0.1"), true);
  assert.equal(isLocalAddress("::1"), true);
  assert.equal(isLocalAddress("::ffff:127.0.0.1"), true);
  assert.equal(isLocalAddress("203.0.113.7"), false, "a documentation address no machine here has");
});

test("the CLI's live line spans several samples: their longest stall and mean CPU, judged by the same rule", () => {
  const stalled = { loopDelayMs: { p50: 0, p99: 0.3, max: 150 }, cpuCores: 0.4 };
  const calm = { loopDelayMs: { p50: 0, p99: 0.3, max: 2 }, cpuCores: 0.2 };
  const over = loadOverSamples(
    [
      { load: stalled, sec: 1 },
      { load: calm, sec: 1 },
    ],
    5,
  );
  assert.deepEqual(over, { loopDelayMaxMs: 150, cpuCores: 0.30000000000000004, clientBound: true });
  assert.equal(loadOverSamples([{ load: calm, sec: 1 }], 5)?.clientBound, false);
  assert.equal(loadOverSamples([], 5), undefined);
  const line = liveLine(
    {
      elapsedSec: 5,
      intervalSec: 5,
      phase: "measuring",
      writesPerSec: 100,
      readsPerSec: 100,
      backlog: 0,
      errors: 0,
      latencyMs: {},
      rates: {},
      runnerLoad: over,
    },
    "queue",
  );
  assert.match(line, /runner cpu 30% loop max 150 ms {2}\(its delay in these latencies\)$/);
});
