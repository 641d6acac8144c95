"use client";
// The runs list's rows for its filter: the server's first answer, then GET /api/runs for each new filter (applied in
// SQL, lib/runs/list-filter.ts), and again every 2 s while one of them is queued or running. Only the answer to the
// newest request is shown (the older ones are aborted): a quick run of filter changes never ends on a stale list.
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { RunView } from "@/lib/runs/view";

const POLL_MS = 2000;

/** `filter`: the filter as a query string (components/runs/query.ts filterString). `shown.filter` is the one `shown.runs` match. */
export function useRunsRows(initialRuns: RunView[], initialFilter: string, filter: string) {
  const router = useRouter();
  const [shown, setShown] = useState({ filter: initialFilter, runs: initialRuns });
  const [problem, setProblem] = useState<string | null>(null);
  // Bumped to ask again with the same filter (polling, after a deletion).
  const [asked, setAsked] = useState(0);
  const first = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: asked is the "ask again" counter: changing it must re-fetch.
  useEffect(() => {
    // The server rendered the first filter's rows.
    if (first.current && filter === initialFilter) return void (first.current = false);
    first.current = false;
    const abort = new AbortController();
    void fetch(`/api/runs${filter ? `?${filter}` : ""}`, { cache: "no-store", signal: abort.signal })
      .then(async (r) => {
        const body = (await r.json().catch(() => ({}))) as { runs?: RunView[]; error?: string };
        if (abort.signal.aborted) return;
        if (r.ok && body.runs) return (setShown({ filter, runs: body.runs }), setProblem(null));
        setProblem(body.error ?? `the server answered HTTP ${r.status}`);
      })
      .catch(() => abort.signal.aborted || setProblem("The app did not answer. Is `npm start` still running?"));
    return () => abort.abort();
  }, [filter, asked, initialFilter]);

  // While a run is queued or running, its row follows it (status, then the results).
  const active = shown.runs.some((r) => r.status === "queued" || r.status === "running");
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setAsked((n) => n + 1), POLL_MS);
    return () => clearInterval(t);
  }, [active]);

  /** After a change elsewhere (a deletion): the rows again, and the server's counts and choices (router.refresh). */
  const reload = () => {
    setAsked((n) => n + 1);
    router.refresh();
  };
  return { shown, problem, reload };
}
