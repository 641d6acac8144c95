"use client";
// Follows a run's SSE stream (GET /api/runs/:id/events). Samples are kept keyed by seq, so the data the
// page was rendered with plus what the stream sends never duplicates or leaves a hole: the stream starts
// after the last seq the page already has, and EventSource's reconnects resume with Last-Event-ID.
import { useEffect, useRef, useState } from "react";
import { parsePayload, ProblemEvent, RunStatusEvent, SampleEvent } from "@/lib/api/payloads";
import type { Sample } from "@/lib/measurement/sample";

export type { RunStatusEvent };

const data = (e: Event) => (e as MessageEvent<string>).data;

export interface RunStream {
  samples: Sample[];
  /** Samples received twice (should stay 0; shown to tests as data-dupes). */
  dupes: number;
  /** Largest delay between a sample's time and its arrival here, for samples that arrived live. */
  maxLagMs: number | null;
  /** Browser clock (ms) when the newest sample arrived: the progress bar ticks on from it. */
  lastArrival: number | null;
  connection: "connecting" | "live" | "reconnecting" | "closed";
  problem: string | null;
}

export function useRunStream(
  runId: string,
  initialSamples: Sample[],
  follow: boolean,
  handlers: { onStatus: (s: RunStatusEvent) => void; onEnd: () => void },
): RunStream {
  const [state, setState] = useState<RunStream>(() => ({
    samples: [...initialSamples].sort((a, b) => a.seq - b.seq),
    dupes: 0,
    maxLagMs: null,
    lastArrival: null,
    connection: follow ? "connecting" : "closed",
    problem: null,
  }));
  const seen = useRef(new Set(initialSamples.map((s) => s.seq)));
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;

  useEffect(() => {
    if (!follow) return;
    let es: EventSource;
    let ended = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    // Each (re)connect starts after the newest sample held here, so a resumed stream never skips one.
    const connect = () => {
      const after = seen.current.size ? Math.max(...seen.current) : -1;
      es = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events?after=${after}`);
      let openedAt = Date.now();
      es.onopen = () => {
        openedAt = Date.now();
        setState((s) => ({ ...s, connection: "live", problem: null }));
      };
      es.onerror = () => {
        // EventSource retries on its own (retry: 1000) and sends Last-Event-ID; only the label changes. After an
        // error answer (503 while the control store restarts) it gives up instead: connect again from here.
        setState((s) => (s.connection === "closed" ? s : { ...s, connection: "reconnecting" }));
        if (es.readyState === EventSource.CLOSED && !ended) retry = setTimeout(connect, 2000);
      };
      es.addEventListener("sample", (e) => {
        const sample = parsePayload(SampleEvent, data(e));
        if (!sample) {
          setState((s) => ({ ...s, problem: "the server sent a sample this page cannot read; reload the page" }));
          return;
        }
        const now = Date.now();
        if (seen.current.has(sample.seq)) {
          setState((s) => ({ ...s, dupes: s.dupes + 1 }));
          return;
        }
        seen.current.add(sample.seq);
        setState((s) => {
          const samples =
            s.samples.length && s.samples[s.samples.length - 1].seq > sample.seq
              ? [...s.samples, sample].sort((a, b) => a.seq - b.seq)
              : [...s.samples, sample];
          // Samples replayed right after (re)connecting are old by design; only count the ones that came live.
          const live = now - openedAt > 2000;
          const lag = now - Date.parse(sample.time);
          return { ...s, samples, lastArrival: now, maxLagMs: live ? Math.max(s.maxLagMs ?? 0, lag) : s.maxLagMs };
        });
      });
      es.addEventListener("status", (e) => {
        const status = parsePayload(RunStatusEvent, data(e));
        if (status) handlersRef.current.onStatus(status);
        else setState((s) => ({ ...s, problem: "the server sent a status this page cannot read; reload the page" }));
      });
      es.addEventListener("problem", (e) => {
        const problem = parsePayload(ProblemEvent, data(e));
        setState((s) => ({ ...s, problem: problem?.message ?? "the server reported a problem it did not describe" }));
      });
      es.addEventListener("end", () => {
        ended = true;
        es.close();
        setState((s) => ({ ...s, connection: "closed" }));
        handlersRef.current.onEnd();
      });
    };
    connect();
    return () => {
      ended = true;
      clearTimeout(retry);
      es.close();
    };
  }, [runId, follow]);

  return state;
}
