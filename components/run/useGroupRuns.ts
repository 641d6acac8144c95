"use client";
// Following a set of runs queued together (an A/B's pairs, a synchronous commit ladder's levels): each one's status
// polled every second until every run has ended, the browser's clock ticking meanwhile for the time left, and once
// all have ended a reload, so the server computes the set's figures from the runs' measured summaries.
import { useEffect, useState } from "react";
import type { RunView } from "@/lib/runs/view";

const FINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);

/** `computed`: whether the server already drew the set's figures (then no reload is needed once all have ended). */
export function useGroupRuns(initial: (RunView | null)[], computed: boolean) {
  const [views, setViews] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => setViews(initial), [initial]);
  const done = views.every((v) => !v || FINAL.has(v.status));
  // The browser's clock, set once mounted (the server's render has none, so both render the same first).
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    if (done) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [done]);

  useEffect(() => {
    if (done) {
      // The runs ended since the page was drawn: the server computes the figures (a reload, not the router, so the
      // page renders the same outside the app, as in its tests).
      if (!computed && initial.some((v) => v && !FINAL.has(v.status))) window.location.reload();
      return;
    }
    let stop = false;
    const poll = async () => {
      try {
        const next = await Promise.all(
          views.map(async (v) => {
            if (!v || FINAL.has(v.status)) return v;
            const r = await fetch(`/api/runs/${v.id}`, { cache: "no-store" });
            if (!r.ok) throw new Error(`run ${v.id}: HTTP ${r.status}`);
            return (await r.json()) as RunView;
          }),
        );
        if (!stop) {
          setViews(next);
          setProblem(null);
        }
      } catch (err) {
        if (!stop) setProblem(`Could not read the runs' progress (${(err as Error).message}); retrying.`);
      }
    };
    const t = setInterval(poll, 1000);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, [done, views, computed, initial]);

  return { views, problem, done, now };
}
