// The runner's side of a ceiling search started from the app: claimed like a run (lib/ceiling/store.ts), each
// step stored as it is judged, the step in progress kept current for the live view, a cancel honoured within
// 2 s with the steps done kept.
import type { PrismaClient } from "../../lib/db";
import { goalMetric } from "../../lib/ceiling/facts";
import { searchUnit } from "../../lib/ceiling/rate";
import { perSecond } from "../../lib/words";
import { confirmSecondsOf, parseCeilingSettings, searchOptionsOf, sloOf } from "../../lib/ceiling/settings";
import { appendStep, finishSearch, isSearchCancelRequested, searchStoppedAt, setProgress, type StepProgress } from "../../lib/ceiling/store";
import type { Env } from "../../lib/env";
import { storeErrorText } from "../../lib/status/health";
import { memoryProblem } from "../../lib/workloads/memory";
import { untilStored } from "../../lib/runs/outbox";
import { maskUrl } from "../../lib/targets/pgurl";
import { controlStoreIdentity } from "../../lib/targets/store";
import { parseConfig } from "../../lib/workloads/config";
import { type CeilingOptions, type CeilingStep, findCeiling } from "./driver";
import type { SearchResult } from "../../lib/ceiling/search";
import { ceilingAnswer, outcomeOf, searchLogLine, statusOfStop } from "../../lib/ceiling/answer";

const CANCEL_POLL_MS = 500;

export interface SearchRow {
  id: string;
  config: unknown;
  settings: unknown;
  workload: string;
  targetId: string | null;
  targetLabel: string;
}

/** What the claim loop shares with the search it executes (as a run's): abort on cancel or shutdown. */
export interface Current {
  abort?: (why: "cancel" | "shutdown") => void;
  reason?: string;
  stopping?: boolean;
}

/** Executes one claimed search to its final status. Never throws. */
export async function executeSearch(
  db: PrismaClient,
  search: SearchRow,
  env: Env,
  current: Current,
  targetUrlOf: (row: SearchRow) => Promise<string>,
  log: (line: string) => void,
): Promise<void> {
  const note = (l: string) => log(`${search.id}: ${l}`);
  const giveUp = () => current.stopping === true;
  const controller = new AbortController();
  let why = "cancel" as "cancel" | "shutdown";
  current.abort = (w) => {
    why = w;
    controller.abort();
  };
  const cancelTimer = setInterval(() => {
    isSearchCancelRequested(search.id, db).then(
      (yes) => yes && current.abort?.("cancel"),
      () => undefined,
    );
  }, CANCEL_POLL_MS);
  const recorder = searchRecorder(db, search.id, note, giveUp);
  try {
    const parsed = parseConfig(search.config);
    if (!parsed.ok) throw new Error(`invalid workload config: ${Object.values(parsed.errors).join("; ")}`);
    const settings = parseCeilingSettings(search.settings, parsed.config.kind);
    if (!settings.ok) throw new Error(`invalid search settings: ${Object.values(settings.errors).join("; ")}`);
    const metric = goalMetric(parsed.config.kind, settings.settings.metric);
    if (!metric.ok) throw new Error(metric.message);
    const tooBig = memoryProblem(parsed.config, env.RUNNER_MEMORY_BUDGET_MB);
    if (tooBig) throw new Error(tooBig.message);
    const url = await targetUrlOf(search);
    const controlStore = await controlStoreIdentity(db).catch(() => null);
    note(`ceiling search of ${parsed.config.kind} on ${search.targetLabel}, goal ${settings.settings.slo}`);
    const result = await findCeiling({
      base: parsed.config,
      targetUrl: url,
      slo: sloOf(settings.settings),
      metric: metric.metric,
      stepSeconds: settings.settings.stepSeconds,
      confirmSeconds: confirmSecondsOf(settings.settings),
      warmupSeconds: parsed.config.warmupSeconds,
      search: searchOptionsOf(settings.settings),
      signal: controller.signal,
      log: note,
      ...recorder.hooks,
      // Each step's run refuses the app's own control store as its target, as a run does (runner/main.ts).
      engine: (index) => ({ ...recorder.hooks.engine?.(index), controlStore }),
    });
    const stopped = statusOfStop(result.stop);
    const status = stopped === "cancelled" && why === "shutdown" ? "interrupted" : stopped;
    const error =
      status === "interrupted"
        ? `${current.reason ?? "the runner was stopped"} ${searchStoppedAt(recorder.stepInProgress())}; the steps it finished are kept`
        : status === "cancelled"
          ? "cancelled on request; the steps done are kept"
          : result.error
            ? maskUrl(result.error)
            : undefined;
    await recorder.finish(result, status, error);
    // The log says what the page says: the answer's status, never a plain "completed" of an unconfirmed rate.
    const unit = searchUnit(parsed.config.kind, parsed.config);
    const metricLabel = result.steps[0]?.goal.label ?? metric.metric.label;
    note(searchLogLine(ceilingAnswer({ status, steps: result.steps, result: outcomeOf(result), slo: sloOf(settings.settings), metricLabel, unit }), unit));
  } catch (err) {
    await recorder.settled();
    const message = maskUrl((err as Error)?.message ?? String(err));
    await finishSearch(search.id, { status: "failed", error: message }, db).catch((e) => note(`could not store the outcome: ${storeErrorText(e)}`));
    note(`failed: ${message}`);
  } finally {
    clearInterval(cancelTimer);
    current.abort = undefined;
  }
}

/**
 * Records a search in the control store as it runs (the runner's, and the CLI's --save): the step in progress
 * (best effort: the next sample replaces it), each step once judged and the outcome (kept and retried while the
 * store is down, until `giveUp`).
 */
export function searchRecorder(db: PrismaClient, id: string, note: (line: string) => void, giveUp: () => boolean) {
  let progress: StepProgress | null = null;
  let progressChain: Promise<void> = Promise.resolve();
  const showProgress = (p: StepProgress) => {
    progress = p;
    progressChain = progressChain.then(() => setProgress(id, p, db)).catch((e) => note(`could not store the step's progress: ${storeErrorText(e)}`));
  };
  const hooks: Pick<CeilingOptions, "onStepStart" | "engine" | "onStep"> = {
    onStepStart: (rate, index, confirmation) => showProgress({ index, rate, phase: "setup", ...(confirmation ? { confirmation } : {}) }),
    engine: (index) => ({
      // Each step's schema is named after the search and the step, so a sweep can tell whose it is.
      runId: `${id}_s${index}`,
      onPhase: (phase) => progress && showProgress({ ...progress, phase }),
      onSample: (s) => {
        if (!progress) return;
        const { elapsedSec, operations, measures } = s.metrics;
        showProgress({ ...progress, phase: s.phase, sample: { elapsedSec, operations, measures } });
      },
    }),
    onStep: async (step, summary) => {
      await untilStored(`step ${step.index + 1}`, () => appendStep(id, step, summary, db), note, giveUp);
      const what = step.confirmation ? "confirmation" : `step ${step.index + 1}`;
      note(
        `${what} at ${step.rate} ${perSecond(searchUnit(summary.config.kind, summary.config))}: ${step.sustained ? "sustained" : step.starved ? "starved, run again" : "not sustained"}`,
      );
    },
  };
  return {
    hooks,
    settled: () => progressChain,
    /** The step running now (its index, rate and phase), or null before the first. */
    stepInProgress: () => progress,
    async finish(result: SearchResult<CeilingStep>, status: "completed" | "failed" | "cancelled" | "interrupted", error?: string) {
      await progressChain;
      const outcome = outcomeOf(result);
      await untilStored("the search's outcome", () => finishSearch(id, { status, result: outcome, ...(error ? { error } : {}) }, db), note, giveUp);
    },
  };
}
