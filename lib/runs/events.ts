// The live event stream of one run (GET /api/runs/:id/events), as Server-Sent Events:
//   id: <seq> / event: sample / data: <Sample JSON>     one per stored sample, in seq order
//   event: status / data: {status, phase, error, …}     at connect and whenever the run's status/phase changes
//   event: end / data: {status}                         once the run is final and every sample was sent
// Samples come from the control store, polled every 250 ms: the runner writes one per second, so a sample
// reaches the browser within ~250 ms + one round trip of being written (the issue's bound is 1.5 s).
// Resuming with Last-Event-ID = the last seq received sends exactly the samples after it: no gap, no duplicate.
import { prisma, type PrismaClient } from "../db";
import { FINAL_STATUSES, type RunStatus } from "../measurement/metrics";
import { storeErrorText } from "../status/health";
import { toSample } from "./view";

export interface RunEventOptions {
  db?: PrismaClient;
  /** Aborted when the client goes away (the route passes request.signal). */
  signal?: AbortSignal;
  pollMs?: number;
  /** A comment line after this much silence keeps proxies from closing an idle stream. */
  heartbeatMs?: number;
  /**
   * How long a hole in the seq numbers is waited for before it is skipped. Holes only appear if a later
   * sample commits before an earlier one; waiting keeps a resumed stream from jumping past a sample forever.
   */
  gapWaitMs?: number;
  /** Rows per query: bounds memory when a long finished run is replayed from the start. */
  batch?: number;
}

/** Last-Event-ID header, else `?after=`; -1 (from the start) when neither is a whole number. */
export function resumeAfter(lastEventId: string | null, afterParam: string | null): number {
  for (const v of [lastEventId, afterParam]) {
    if (v != null && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  }
  return -1;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

export function runEventStream(runId: string, afterSeq: number, opts: RunEventOptions = {}): ReadableStream<Uint8Array> {
  const db = opts.db ?? prisma();
  const pollMs = opts.pollMs ?? 250;
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const gapWaitMs = opts.gapWaitMs ?? 1000;
  const batch = opts.batch ?? 1000;
  const enc = new TextEncoder();
  const stop = new AbortController();
  opts.signal?.addEventListener("abort", () => stop.abort(), { once: true });

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let lastWrite = Date.now();
      const write = (text: string) => {
        if (stop.signal.aborted) return;
        try {
          controller.enqueue(enc.encode(text));
          lastWrite = Date.now();
        } catch {
          stop.abort(); // the client went away between two writes
        }
      };
      const event = (name: string, data: unknown, id?: number) =>
        write(`${id !== undefined ? `id: ${id}\n` : ""}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

      let after = afterSeq;
      let lastStatus = "";
      let gapSince: number | null = null;
      // EventSource reconnects after this many ms if the connection drops.
      write("retry: 1000\n\n");
      try {
        while (!stop.signal.aborted) {
          // Status first, then samples: a run seen final here had written all its samples already, so
          // the query below gets every one of them before `end` is sent.
          const run = await db.run.findUnique({
            where: { id: runId },
            select: { status: true, phase: true, error: true, startedAt: true, finishedAt: true, cancelRequested: true },
          });
          if (!run) {
            event("end", { status: "deleted" });
            break;
          }
          const final = FINAL_STATUSES.includes(run.status as RunStatus);
          const status = {
            status: run.status,
            phase: run.phase,
            error: run.error,
            cancelRequested: run.cancelRequested,
            startedAt: run.startedAt?.toISOString() ?? null,
            finishedAt: run.finishedAt?.toISOString() ?? null,
          };
          const key = JSON.stringify(status);
          if (key !== lastStatus) {
            event("status", status);
            lastStatus = key;
          }
          const rows = await db.sample.findMany({ where: { runId, seq: { gt: after } }, orderBy: { seq: "asc" }, take: batch });
          let held = false;
          for (const row of rows) {
            // Seqs start at 0 (runner/engine.ts), so a fresh stream also waits for a missing first one.
            if (row.seq !== after + 1 && !final) {
              gapSince ??= Date.now();
              if (Date.now() - gapSince < gapWaitMs) {
                held = true;
                break;
              }
            }
            gapSince = null;
            const s = toSample(row);
            if (s) event("sample", s, s.seq);
            // Never silently: a stored sample this version cannot read is named, and the stream goes on.
            else event("problem", { message: `sample ${row.seq} of this run does not match the sample schema (lib/measurement/sample.ts) and is not shown` });
            after = row.seq;
          }
          if (final && rows.length < batch && !held) {
            event("end", { status: run.status });
            break;
          }
          if (Date.now() - lastWrite >= heartbeatMs) write(": keep-alive\n\n");
          if (rows.length < batch || held) await sleep(pollMs, stop.signal);
        }
      } catch (err) {
        // The control store went away mid-stream: say so; EventSource reconnects and resumes from the last id.
        event("problem", { message: `reading the run failed: ${storeErrorText(err)}` });
      }
      stop.abort();
      try {
        controller.close();
      } catch {
        /* already closed by the client */
      }
    },
    cancel() {
      stop.abort();
    },
  });
}
