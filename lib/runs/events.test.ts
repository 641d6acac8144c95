import assert from "node:assert/strict";
import { test } from "node:test";
import type { z } from "zod";
import { EndEvent, parsePayload, ProblemEvent, RunStatusEvent, SampleEvent } from "../api/payloads";
import { prisma } from "../db";
import { resumeAfter, runEventStream } from "./events";
import { appendSample, createRun, finishRun } from "./store";
import { controlStoreForFile, type Ev, metrics, seqs, takeEvents } from "./stream-testing";
import { WorkloadConfig } from "../workloads/config";

controlStoreForFile("events_ctl");

/** Reads SSE events from a stream until `stopWhen` says so or the stream ends. */
async function readEvents(stream: ReadableStream<Uint8Array>, stopWhen: (evs: Ev[]) => boolean = () => false) {
  const reader = stream.getReader();
  const dec = new TextDecoder();
  let buf = "";
  const evs: Ev[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const took = takeEvents(buf + dec.decode(value, { stream: true }));
    buf = took.rest;
    evs.push(...took.evs);
    if (stopWhen(evs)) {
      await reader.cancel();
      break;
    }
  }
  return evs;
}

test("resumeAfter prefers Last-Event-ID, falls back to ?after=, else starts at the beginning", () => {
  assert.equal(resumeAfter("7", "3"), 7);
  assert.equal(resumeAfter(null, "3"), 3);
  assert.equal(resumeAfter("junk", null), -1);
  assert.equal(resumeAfter(null, null), -1);
});

test("a live stream sends samples as they are written, in order; a resumed one continues with no gap or duplicate; end follows the last", async () => {
  const run = await createRun({ config: WorkloadConfig.parse({ kind: "queue" }), targetLabel: "t", status: "running" });
  for (let s = 0; s < 3; s++) await appendSample(run.id, s, "warmup", metrics(s + 1));

  // First connection: gets 0..2 at once, then 3 and 4 as they are written; disconnects after 4.
  const writer = (async () => {
    for (let s = 3; s < 5; s++) {
      await new Promise((r) => setTimeout(r, 300));
      await appendSample(run.id, s, "measuring", metrics(s + 1));
    }
  })();
  const t0 = Date.now();
  const first = await readEvents(runEventStream(run.id, -1, { pollMs: 50 }), (evs) => seqs(evs).includes(4));
  await writer;
  assert.deepEqual(seqs(first), [0, 1, 2, 3, 4]);
  assert.ok(Date.now() - t0 < 3000);
  assert.equal(first[0].event, "status");
  assert.equal((first[0].data as { status: string }).status, "running");

  // Written while disconnected, then the run finishes.
  for (let s = 5; s < 8; s++) await appendSample(run.id, s, "measuring", metrics(s + 1));
  await finishRun(run.id, { status: "completed" });

  const resumed = await readEvents(runEventStream(run.id, resumeAfter("4", null), { pollMs: 50 }));
  assert.deepEqual(seqs(resumed), [5, 6, 7]);
  const last = resumed.at(-1)!;
  assert.equal(last.event, "end");
  assert.deepEqual(last.data, { status: "completed" });
  assert.ok(resumed.some((e) => e.event === "status" && (e.data as { status: string }).status === "completed"));
});

test("a hole in the seq numbers is waited for (a later sample committed first), then the stream carries on", async () => {
  const run = await createRun({ config: WorkloadConfig.parse({ kind: "queue" }), targetLabel: "t", status: "running" });
  await appendSample(run.id, 0, "measuring", metrics(1));
  await appendSample(run.id, 2, "measuring", metrics(3));
  setTimeout(() => void appendSample(run.id, 1, "measuring", metrics(2)), 200);
  const evs = await readEvents(runEventStream(run.id, -1, { pollMs: 50, gapWaitMs: 2000 }), (e) => seqs(e).length >= 3);
  assert.deepEqual(seqs(evs), [0, 1, 2]);
});

test("the stream of a deleted run ends, and a huge backlog is replayed in batches", async () => {
  const run = await createRun({ config: WorkloadConfig.parse({ kind: "queue" }), targetLabel: "t", status: "running" });
  await prisma().sample.createMany({
    data: Array.from({ length: 250 }, (_, seq) => ({ runId: run.id, seq, phase: "measuring", time: new Date(), metrics: metrics(seq) as object })),
  });
  await finishRun(run.id, { status: "failed", error: "boom" });
  const evs = await readEvents(runEventStream(run.id, -1, { pollMs: 50, batch: 100 }));
  assert.deepEqual(
    seqs(evs),
    Array.from({ length: 250 }, (_, i) => i),
  );
  assert.equal(evs.at(-1)!.event, "end");

  const gone = await createRun({ config: WorkloadConfig.parse({ kind: "queue" }), targetLabel: "t", status: "running" });
  const stream = runEventStream(gone.id, -1, { pollMs: 50 });
  await prisma().run.delete({ where: { id: gone.id } });
  const evs2 = await readEvents(stream);
  assert.deepEqual(evs2.at(-1), { event: "end", data: { status: "deleted" } });
});

test("every event the stream sends parses with the browser's schemas (lib/api/payloads.ts); other shapes do not", async () => {
  const run = await createRun({ config: WorkloadConfig.parse({ kind: "queue" }), targetLabel: "t", status: "running" });
  await appendSample(run.id, 0, "measuring", metrics(1));
  await finishRun(run.id, { status: "completed" });
  const evs = await readEvents(runEventStream(run.id, -1));
  const schemas: Record<string, z.ZodType> = { sample: SampleEvent, status: RunStatusEvent, end: EndEvent, problem: ProblemEvent };
  assert.deepEqual([...new Set(evs.map((e) => e.event))].sort(), ["end", "sample", "status"]);
  for (const e of evs) assert.ok(parsePayload(schemas[e.event], JSON.stringify(e.data)), `${e.event}: ${JSON.stringify(e.data)}`);
  assert.equal(parsePayload(SampleEvent, '{"seq":"1"}'), null);
  assert.equal(parsePayload(RunStatusEvent, "<html>502 Bad Gateway</html>"), null);
  assert.equal(
    parsePayload(RunStatusEvent, '{"status":"exploded","phase":null,"error":null,"cancelRequested":false,"startedAt":null,"finishedAt":null}'),
    null,
  );
});
