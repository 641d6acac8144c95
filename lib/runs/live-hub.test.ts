// The live view at scale: one hub per run serves every viewer (lib/runs/live-hub.ts, lib/runs/events.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { type PrismaClient, prisma } from "../db";
import { WorkloadConfig } from "../workloads/config";
import { runEventStream } from "./events";
import { liveHubs } from "./live-hub";
import { appendSample, createRun, finishRun } from "./store";
import { controlStoreForFile, type Ev, metrics, seqs, takeEvents } from "./stream-testing";

controlStoreForFile("live_hub_ctl");

/** The control store's client, counting every query it sends (the hub's and each viewer's alike). */
function countingDb() {
  const counter = { queries: 0 };
  const db = prisma().$extends({
    query: {
      $allOperations({ args, query }) {
        counter.queries++;
        return query(args);
      },
    },
  }) as unknown as PrismaClient;
  return { db, counter };
}

/** A viewer reading SSE events as they come; `until` resolves once `cond` holds over what it has read. */
function viewer(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const dec = new TextDecoder();
  const evs: Ev[] = [];
  let bytes = 0;
  let buf = "";
  let ended = false;
  const waiters: (() => void)[] = [];
  const done = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done || !value) break;
      bytes += value.byteLength;
      const took = takeEvents(buf + dec.decode(value, { stream: true }));
      buf = took.rest;
      evs.push(...took.evs);
      for (const w of waiters.splice(0)) w();
    }
    ended = true;
    for (const w of waiters.splice(0)) w();
  })();
  return {
    evs,
    get bytes() {
      return bytes;
    },
    get ended() {
      return ended;
    },
    done,
    async until(cond: (evs: Ev[]) => boolean, what: string, ms = 30_000) {
      const t0 = Date.now();
      while (!cond(evs)) {
        if (ended) throw new Error(`the stream ended before ${what}: ${JSON.stringify(evs.map((e) => [e.event, e.id]))}`);
        if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
        await new Promise<void>((r) => waiters.push(r));
      }
    },
    cancel: () => reader.cancel(),
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Waits (generously) for a condition that is reached asynchronously. */
async function eventually(cond: () => boolean, what: string, ms = 30_000) {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const newRun = () => createRun({ config: WorkloadConfig.parse({ kind: "queue" }), targetLabel: "t", status: "running" });

test("50 viewers of a live run: the control store's queries do not grow with the viewers; each viewer gets every sample once, in order", async () => {
  const run = await newRun();
  for (let s = 0; s < 3; s++) await appendSample(run.id, s, "measuring", metrics(s + 1));
  const { db, counter } = countingDb();
  const pollMs = 100;
  const t0 = Date.now();
  const viewers = Array.from({ length: 50 }, () => viewer(runEventStream(run.id, -1, { db, pollMs })));
  for (let s = 3; s < 8; s++) {
    await new Promise((r) => setTimeout(r, 100));
    await appendSample(run.id, s, "measuring", metrics(s + 1));
  }
  await Promise.all(viewers.map((v) => v.until((evs) => seqs(evs).includes(7), "sample 7")));
  const elapsed = Date.now() - t0;
  const queries = counter.queries;
  for (const v of viewers) assert.deepEqual(seqs(v.evs), range(0, 7));
  await Promise.all(viewers.map((v) => v.cancel()));
  // One poll (a status read and a sample read) per pollMs at most, whatever the number of viewers; each viewer
  // polling on its own would make 100 queries a tick.
  const bound = 2 * (Math.ceil(elapsed / pollMs) + 2);
  assert.ok(queries <= bound, `${queries} queries in ${elapsed} ms for 50 viewers; one poll per ${pollMs} ms allows ${bound}`);
});

test("a viewer resuming from before the hub's ring reads the gap from the store, then joins the live stream: no gap, no duplicate", async () => {
  const run = await newRun();
  await prisma().sample.createMany({
    data: range(0, 19).map((seq) => ({ runId: run.id, seq, phase: "measuring", time: new Date(), metrics: metrics(seq + 1) as object })),
  });
  const opts = { pollMs: 50, ringEvents: 5, batch: 4 };
  // A live viewer keeps the hub (and its 5-event ring: samples 15..19) going.
  const live = viewer(runEventStream(run.id, -1, opts));
  await live.until((evs) => seqs(evs).includes(19), "sample 19");
  const hub = liveHubs().find((h) => h.runId === run.id)!;
  assert.ok(hub.ringFloor >= 14, `the ring holds the newest 5 samples (floor ${hub.ringFloor})`);
  const resumed = viewer(runEventStream(run.id, 3, opts)); // Last-Event-ID 3: far behind the ring
  const near = viewer(runEventStream(run.id, 17, opts)); // inside the ring
  await resumed.until((evs) => seqs(evs).includes(19), "sample 19 (resumed)");
  for (let s = 20; s < 25; s++) await appendSample(run.id, s, "measuring", metrics(s + 1));
  await finishRun(run.id, { status: "completed" });
  for (const v of [live, resumed, near]) await v.done;
  assert.deepEqual(seqs(live.evs), range(0, 24));
  assert.deepEqual(seqs(resumed.evs), range(4, 24));
  assert.deepEqual(seqs(near.evs), range(18, 24));
  for (const v of [live, resumed, near]) assert.deepEqual(v.evs.at(-1), { event: "end", data: { status: "completed" } });
});

test("a viewer that does not read is dropped past its bound with a problem telling it to reconnect; it resumes from its last sample", async () => {
  const run = await newRun();
  const maxQueuedBytes = 16 * 1024;
  const opts = { pollMs: 50, maxQueuedBytes };
  const fast = viewer(runEventStream(run.id, -1, opts));
  const slowStream = runEventStream(run.id, -1, opts); // nobody reads it (yet)
  await fast.until((evs) => evs.some((e) => e.event === "status"), "the status");
  const hub = liveHubs().find((h) => h.runId === run.id)!;
  let seq = 0;
  while (hub.viewers > 1) {
    assert.ok(seq < 2000, "the slow viewer is still held after 2,000 samples");
    await appendSample(run.id, seq, "measuring", metrics(seq + 1));
    seq++;
    await fast.until((evs) => seqs(evs).includes(seq - 1), `sample ${seq - 1}`);
  }
  // Read what the slow viewer was left with: samples from 0 without a hole, then the problem, then the end of the stream.
  const slow = viewer(slowStream);
  await slow.done;
  const got = seqs(slow.evs);
  assert.deepEqual(got, range(0, got.length - 1));
  const last = slow.evs.at(-1)!;
  assert.equal(last.event, "problem");
  assert.match((last.data as { message: string }).message, /fell behind .* limit is 16 KiB.*reconnect/);
  assert.ok(slow.bytes < maxQueuedBytes + 64 * 1024, `the slow viewer held ${slow.bytes} bytes`);
  // EventSource reconnects with Last-Event-ID: the rest comes, nothing twice.
  await finishRun(run.id, { status: "completed" });
  const again = viewer(runEventStream(run.id, got.at(-1)!, opts));
  await again.done;
  assert.deepEqual([...got, ...seqs(again.evs)], range(0, seq - 1));
  await fast.done;
  assert.deepEqual(seqs(fast.evs), range(0, seq - 1));
});

test("the hub stops polling when its last viewer leaves, and once the run is final", async () => {
  const run = await newRun();
  await appendSample(run.id, 0, "measuring", metrics(1));
  const { db, counter } = countingDb();
  const opts = { db, pollMs: 20 };
  const viewers = [0, 1, 2].map(() => viewer(runEventStream(run.id, -1, opts)));
  await Promise.all(viewers.map((v) => v.until((evs) => seqs(evs).includes(0), "sample 0")));
  await eventually(() => liveHubs().find((h) => h.runId === run.id)!.polls >= 3, "three polls");
  await Promise.all(viewers.map((v) => v.cancel()));
  await eventually(() => !liveHubs().some((h) => h.runId === run.id), "the hub to leave");
  const left = counter.queries;
  await new Promise((r) => setTimeout(r, 300)); // 15 poll intervals: a hub still polling would query here
  assert.equal(counter.queries, left, "queries after the last viewer left");

  const last = viewer(runEventStream(run.id, 0, opts));
  await last.until((evs) => evs.some((e) => e.event === "status"), "the status");
  const hub = liveHubs().find((h) => h.runId === run.id)!;
  await finishRun(run.id, { status: "completed" });
  await last.done;
  assert.deepEqual(last.evs.at(-1), { event: "end", data: { status: "completed" } });
  assert.equal(hub.polling, false);
  const ended = counter.queries;
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(counter.queries, ended, "queries after the run was final");
  assert.ok(!liveHubs().some((h) => h.runId === run.id), "the final run's hub is gone once its viewer left");
});

test("a client gone before its stream starts holds nothing: the stream ends and no hub is left", async () => {
  const run = await newRun();
  const gone = new AbortController();
  gone.abort();
  const v = viewer(runEventStream(run.id, -1, { pollMs: 20, signal: gone.signal }));
  await v.done;
  assert.deepEqual(v.evs, []);
  await eventually(() => !liveHubs().some((h) => h.runId === run.id), "no hub for the run");
});

test("a replay whose reader takes nothing is dropped after stallMs with a problem, holding at most one batch", async () => {
  const run = await newRun();
  await prisma().sample.createMany({
    data: range(0, 399).map((seq) => ({ runId: run.id, seq, phase: "measuring", time: new Date(), metrics: metrics(seq + 1) as object })),
  });
  await finishRun(run.id, { status: "completed" });
  // The ring holds the last 5; the 395 before are replayed from the store, 200 a batch, only as the reader takes them.
  const stream = runEventStream(run.id, -1, { ringEvents: 5, batch: 200, stallMs: 300 });
  await eventually(() => !liveHubs().some((h) => h.runId === run.id), "the stalled viewer to be dropped");
  const v = viewer(stream);
  await v.done;
  assert.deepEqual(seqs(v.evs), range(0, 199));
  const last = v.evs.at(-1)!;
  assert.equal(last.event, "problem");
  assert.match((last.data as { message: string }).message, /read nothing for 0.3 s .*reconnect/);
  const again = viewer(runEventStream(run.id, 199, { ringEvents: 5, batch: 200 }));
  await again.done;
  assert.deepEqual(seqs(again.evs), range(200, 399));
  assert.deepEqual(again.evs.at(-1), { event: "end", data: { status: "completed" } });
});
