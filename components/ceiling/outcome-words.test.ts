// One search, one set of words: each outcome a ceiling search can end in (a confirmed ceiling, a confirmed lower
// bound, an unconfirmed one, none, cancelled, and a search still running) is written by every surface that
// speaks of it: the page (its status badge, its result, "Beside the published figures", the other searches
// beside it), the list of searches, the CLI's result lines and the runner's log line. No sentence may contradict
// the steps' table: "no step sustained" beside a sustained step, "sustains N" of a rate no longer run held, "no
// higher rate was tried" with a higher rate in the steps, "the true ceiling is in it" of an unconfirmed bracket;
// and a search with no confirmed answer is never shown as a plain (green) "completed".
// The steps are judged by the real verdict (lib/ceiling/verdict.ts) from their facts and planned by the real
// search (lib/ceiling/search.ts), the target's answer at each rate given by each case.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { type AnswerKind, answerOfView, ceilingAnswer, otherCeiling, searchLogLine } from "@/lib/ceiling/answer";
import { publishedBeside } from "@/lib/ceiling/published";
import { searchCeiling, SEARCH_DEFAULTS, type SearchResult, type SearchOptions } from "@/lib/ceiling/search";
import { parseSlo, type Slo } from "@/lib/ceiling/slo";
import type { CeilingStep } from "@/lib/ceiling/step";
import { judgeStep, type StepFacts } from "@/lib/ceiling/verdict";
import type { CeilingView } from "@/lib/ceiling/view";
import { WorkloadConfig } from "@/lib/workloads/config";
import { resultLines } from "@/runner/ceiling/format";
import { CeilingPage } from "./CeilingPage";
import { CeilingsTable } from "./CeilingsTable";

const slo = (parseSlo("p99<50ms") as { ok: true; slo: Slo }).slo;
type Served = "held" | "slow" | "starved";
function step(rate: number, index: number, confirmation: boolean, served: Served): CeilingStep {
  const seconds = confirmation ? 60 : 8;
  const facts: StepFacts = {
    targetRate: rate,
    unit: "msg",
    achievedRate: rate,
    measuredSeconds: seconds,
    readRate: rate,
    fanOut: 1,
    backlog: null,
    backlogSlack: 2,
    writeBatch: 1,
    latency: {
      name: "e2e",
      label: "e2e",
      stats: { p50: 5, p90: 10, p95: 12, p99: served === "held" ? 30 : 80, p999: 90, max: 100, mean: 6, count: rate * seconds },
    },
    errors: { count: 0, messages: [] },
    client: served === "starved" ? { cpuCores: 1.0, eventLoopP99Ms: 40 } : { cpuCores: 0.3, eventLoopP99Ms: 2 },
  };
  const verdict = judgeStep(facts, slo);
  return {
    index,
    rate,
    sustained: verdict.sustained,
    ...(verdict.starved ? { starved: true } : {}),
    ...(confirmation ? { confirmation: true } : {}),
    verdict,
    achievedRate: facts.achievedRate,
    readRate: facts.readRate,
    measuredSeconds: seconds,
    goal: facts.latency,
    latencyMs: {},
    client: facts.client,
    startedAt: "2026-11-28T08:00:00.000Z",
    endedAt: "2026-11-28T08:00:10.000Z",
  };
}
async function search(serve: (rate: number, confirmation: boolean, attempt: number) => Served, o: Partial<SearchOptions>, cancelAfter?: number) {
  const tries = new Map<number, number>();
  const ctl = new AbortController();
  return searchCeiling(
    async (rate, index, confirmation) => {
      const attempt = (tries.get(rate) ?? 0) + 1;
      tries.set(rate, attempt);
      const s = step(rate, index, confirmation, serve(rate, confirmation, attempt));
      if (cancelAfter !== undefined && index + 1 >= cancelAfter) ctl.abort();
      return s;
    },
    { ...SEARCH_DEFAULTS, startRate: 100, maxRate: 1_000_000, ...o },
    ctl.signal,
  );
}

const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, durationSeconds: 8, warmupSeconds: 1 });
function viewOf(r: SearchResult<CeilingStep> | null, steps: CeilingStep[], status: CeilingView["status"]): CeilingView {
  return {
    id: "c_0123456789ab",
    workload: "queue",
    labels: { name: null, notes: null, tags: [] },
    config,
    targetId: null,
    targetLabel: "embedded",
    status,
    cancelRequested: status === "cancelled",
    settings: { slo: "p99<50ms", stepSeconds: 8, startRate: 100, maxRate: 1_000_000, precisionPercent: 10, maxSteps: 16 } as CeilingView["settings"],
    createdAt: "2026-11-28T08:00:00.000Z",
    startedAt: null,
    finishedAt: null,
    error: null,
    progress: null,
    steps,
    result: r
      ? { stop: r.stop, ceiling: r.ceiling, bracket: r.bracket, failedAbove: r.failedAbove?.index ?? null, confirmation: r.confirmation?.index ?? null }
      : null,
  };
}
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&[a-z]+;/g, " ")
    .replace(/\s+/g, " ");

const html = (view: CeilingView, others: CeilingView[] = []) =>
  renderToStaticMarkup(createElement(CeilingPage, { initial: view, others: others.map(otherCeiling), command: "npm run bench -- ceiling queue" }));
const section = (markup: string, testid: string) => {
  const at = markup.indexOf(`data-testid="${testid}"`);
  assert.ok(at >= 0, `the page has ${testid}`);
  return text(markup.slice(at, markup.indexOf("</section>", at)));
};

/** Every sentence each surface writes of one search. */
function surfaces(view: CeilingView, r: SearchResult<CeilingStep> | null) {
  const page = html(view);
  const badge = /data-testid="ceiling-status"[^>]*>(.*?)<\/span>\s*<span>/.exec(page)?.[1] ?? "";
  const unit = "msg";
  // The runner's log line, as runner/ceiling/execute.ts writes it when the search ends.
  const log = view.result
    ? searchLogLine(ceilingAnswer({ status: view.status, steps: view.steps, result: view.result, slo, metricLabel: "e2e", unit }), unit)
    : "";
  // Compare: this search as the other searches' table beside another search shows it.
  const other = renderToStaticMarkup(createElement(CeilingPage, { initial: { ...view, id: "c_ffffffffffff" }, others: [otherCeiling(view)], command: "" }));
  return {
    page: section(page, "ceiling-page"),
    badge: text(badge).trim(),
    published: section(page, "ceiling-published"),
    "published (lib)": publishedBeside("queue", view.config as unknown as Record<string, unknown>, answerOfView(view))
      .map((p) => p.sentence)
      .join("\n"),
    "other searches": section(other, "ceiling-others"),
    list: text(renderToStaticMarkup(createElement(CeilingsTable, { rows: [view] }))),
    cli: r ? resultLines(r, slo, "e2e", "msg").join("\n") : "",
    log,
  };
}

/** The contradictions between what a surface says and the steps' table. */
function contradictions(view: CeilingView, said: Record<string, string>): string[] {
  const out: string[] = [];
  const judged = view.steps.filter((s) => !s.starved);
  const anySustained = judged.some((s) => s.sustained);
  const confirmedAt = (n: number) => view.steps.some((s) => s.confirmation && s.sustained && !s.starved && s.rate === n);
  const confirmedAny = view.result?.confirmation != null;
  for (const [where, t] of Object.entries(said)) {
    if (anySustained && /sustained no step|not one step was sustained/.test(t)) out.push(`${where}: says no step was sustained beside a sustained step: ${t}`);
    for (const m of t.matchAll(/sustains (?:at least )?([\d,]+) msg\/s/g)) {
      const n = Number(m[1].replaceAll(",", ""));
      if (!confirmedAt(n)) out.push(`${where}: "sustains ${m[1]}" of an unconfirmed rate`);
    }
    if (/no higher rate was tried/.test(t) && view.steps.some((s) => s.rate > (view.result?.ceiling ?? 0)))
      out.push(`${where}: "no higher rate was tried" with a higher rate in the steps`);
    if (/no longer run was made/.test(t) && view.steps.some((s) => s.confirmation))
      out.push(`${where}: "no longer run was made" beside a longer run in the steps`);
    if (/could not drive a higher rate/.test(t) && view.steps.at(-1)?.confirmation && view.steps.at(-1)?.starved)
      out.push(`${where}: "could not drive a higher rate" when the longer run, not a higher rate, was starved`);
    if (/(that|the) rate (found )?is not confirmed/.test(t) && confirmedAny) out.push(`${where}: says the rate is not confirmed beside its confirmation`);
    if (/true ceiling (is in it|lies between)/.test(t) && !confirmedAny) out.push(`${where}: claims the true ceiling is in an unconfirmed bracket`);
  }
  return out;
}

type Case = { r: SearchResult<CeilingStep> | null; status: CeilingView["status"]; steps?: CeilingStep[]; kind: AnswerKind; label: RegExp };
const cases: Record<string, () => Promise<Case>> = {
  "confirmed ceiling": async () => ({
    r: await search((rate) => (rate <= 300 ? "held" : "slow"), {}),
    status: "completed",
    kind: "confirmed-ceiling",
    label: /completed · confirmed ceiling/,
  }),
  "confirmed lower bound (the maximum rate held)": async () => ({
    r: await search(() => "held", { maxRate: 800 }),
    status: "completed",
    kind: "confirmed-lower-bound",
    label: /completed · confirmed lower bound/,
  }),
  "confirmed lower bound: three starved tries at 12,800, the rate below confirmed": async () => ({
    r: await search((rate) => (rate >= 12_800 ? "starved" : "held"), { startRate: 3200 }),
    status: "completed",
    kind: "confirmed-lower-bound",
    label: /completed · confirmed lower bound/,
  }),
  "confirmed lower bound: starved tries at 12,800, the longer run starved once and then measured": async () => ({
    r: await search((rate, confirmation, attempt) => (rate >= 12_800 || (confirmation && attempt === 2) ? "starved" : "held"), { startRate: 3200 }),
    status: "completed",
    kind: "confirmed-lower-bound",
    label: /completed · confirmed lower bound/,
  }),
  "unconfirmed lower bound: every longer run failed, the bracket moved": async () => ({
    r: await search((rate, confirmation) => (confirmation ? (rate <= 100 ? "held" : "slow") : rate <= 700 ? "held" : "slow"), {}),
    status: "completed",
    kind: "unconfirmed-lower-bound",
    label: /completed · unconfirmed lower bound/,
  }),
  "unconfirmed lower bound: every longer run starved": async () => ({
    r: await search((rate, confirmation) => (confirmation ? "starved" : rate <= 300 ? "held" : "slow"), {}),
    status: "completed",
    kind: "unconfirmed-lower-bound",
    label: /completed · unconfirmed lower bound/,
  }),
  "none: short steps held but the longer run did not": async () => ({
    r: await search((rate, confirmation) => (!confirmation && rate <= 500 ? "held" : "slow"), { startRate: 500, maxSteps: 3 }),
    status: "completed",
    kind: "none",
    label: /completed · no answer/,
  }),
  "none: not one step sustained": async () => ({
    r: await search(() => "slow", { startRate: 4 }),
    status: "completed",
    kind: "none",
    label: /completed · no answer/,
  }),
  cancelled: async () => ({ r: await search(() => "held", {}, 2), status: "cancelled", kind: "cancelled", label: /^cancelled$/ }),
  "running, two steps sustained so far": async () => ({
    r: null,
    steps: (await search(() => "held", {}, 2)).steps,
    status: "running",
    kind: "running",
    label: /^running$/,
  }),
};

for (const [name, make] of Object.entries(cases)) {
  test(`${name}: every surface says it, and no sentence contradicts the steps`, async () => {
    const c = await make();
    const steps = c.steps ?? c.r!.steps;
    const view = viewOf(c.r, steps, c.status);
    const said = surfaces(view, c.r);
    const shown = JSON.stringify(said, null, 1);
    assert.deepEqual(contradictions(view, said), [], shown);
    const answer = answerOfView(view);
    assert.equal(answer.kind, c.kind, shown);
    // The status shown names the outcome on the page, in the list, beside other searches, in the CLI and the log.
    assert.match(said.badge, c.label, shown);
    for (const where of ["list", "other searches"] as const)
      assert.match(said[where], new RegExp(c.label.source.replace(/^\^|\$$/g, "")), `${where}: ${shown}`);
    if (c.r) {
      assert.match(said.cli.split("\n")[0], new RegExp(`^result: ${c.label.source.replace(/^\^|\$$/g, "")}`), shown);
      assert.match(said.log, new RegExp(`^${c.label.source.replace(/^\^|\$$/g, "")}`), shown);
    }
    // Green only for a confirmed answer.
    const green = /class="badge ok"[^>]*data-testid="ceiling-status"/.test(html(view));
    assert.equal(green, c.kind === "confirmed-ceiling" || c.kind === "confirmed-lower-bound", `the badge is green only when confirmed: ${said.badge}`);
    // Beside the published figures: this server's side is the answer's.
    assert.ok(said.published.includes(answer.ours.replace(/[<>]/g, " ").replace(/\s+/g, " ")) || said["published (lib)"].includes(answer.ours), shown);
  });
}

test("the live page's published figures follow the steps as they arrive", async () => {
  const { steps } = await search((rate) => (rate <= 200 ? "held" : "slow"), {}, 4);
  const sentences = [0, 1, 2, 3].map((n) => section(html(viewOf(null, steps.slice(0, n), "running")), "ceiling-published"));
  assert.match(sentences[0], /no step of this search has been judged so far/);
  assert.match(sentences[1], /so far this server held 100 msg\/s/);
  assert.match(sentences[2], /so far this server held 200 msg\/s/);
  // A failed step above does not take back the rate held; nothing claims a confirmed rate.
  assert.match(sentences[3], /so far this server held 200 msg\/s/);
  for (const t of sentences) assert.doesNotMatch(t, /sustains/);
});
