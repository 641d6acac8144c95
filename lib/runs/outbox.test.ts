import assert from "node:assert/strict";
import { test } from "node:test";
import type { RecordedSample } from "./recorder";
import { SampleOutbox, untilStored } from "./outbox";

/** What node-postgres throws while the control store is down. */
const outage = (what = "") => Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:1 ${what}`), { code: "ECONNREFUSED" });
const sample = (seq: number) => ({ seq, phase: "measuring", time: new Date(), metrics: {} }) as unknown as RecordedSample;

test("samples are kept while the store fails and stored in order once it answers", async () => {
  const stored: number[] = [];
  let down = true;
  const lines: string[] = [];
  const box = new SampleOutbox(
    async (s) => {
      if (down) throw new Error("connect ECONNREFUSED 127.0.0.1:1");
      stored.push(s.seq);
    },
    (l) => lines.push(l),
  );
  for (let i = 0; i < 5; i++) box.push(sample(i));
  await new Promise((r) => setTimeout(r, 400));
  assert.deepEqual(stored, []);
  down = false;
  box.push(sample(5));
  await box.flush();
  assert.deepEqual(stored, [0, 1, 2, 3, 4, 5]);
  assert.equal(box.lostNote(), null);
  assert.equal(lines.filter((l) => l.startsWith("cannot store")).length, 1, "one line per outage");
  assert.match(lines.join("\n"), /answers again/);
});

test("beyond its bound the oldest samples are dropped and the loss is named", async () => {
  const box = new SampleOutbox(
    async () => Promise.reject(outage()),
    () => undefined,
    () => false,
    3,
  );
  for (let i = 0; i < 6; i++) box.push(sample(i));
  box.close();
  await box.flush();
  assert.match(box.lostNote() ?? "", /^6 samples \(seq 0–5\) could not be stored/);
  const box2 = new SampleOutbox(
    async () => Promise.reject(outage()),
    () => undefined,
    () => false,
    3,
  );
  for (let i = 0; i < 5; i++) box2.push(sample(i));
  assert.deepEqual(box2.lost, [0, 1]);
  box2.close();
});

test("a stopping runner gives up at once", async () => {
  let stopping = false;
  const box = new SampleOutbox(
    async () => Promise.reject(outage()),
    () => undefined,
    () => stopping,
  );
  box.push(sample(0));
  setTimeout(() => (stopping = true), 100);
  const t0 = Date.now();
  await box.flush();
  assert.ok(Date.now() - t0 < 1500);
  assert.deepEqual(box.lost, [0]);
  let n = 0;
  await assert.rejects(
    untilStored(
      "x",
      async () => Promise.reject(outage(`attempt ${++n}`)),
      () => undefined,
      () => n >= 3,
    ),
    /attempt 3/,
  );
});

test("a refusal that is not an outage (a constraint, a deleted run) is not retried: the sample is lost and said why", async () => {
  const logged: string[] = [];
  const stored: number[] = [];
  const box = new SampleOutbox(
    async (s: { seq: number }) => {
      if (s.seq === 1) throw Object.assign(new Error("insert or update on table violates foreign key constraint"), { code: "23503" });
      stored.push(s.seq);
    },
    (l) => logged.push(l),
  );
  for (const seq of [0, 1, 2]) box.push(sample(seq));
  await box.flush();
  assert.deepEqual(stored, [0, 2]);
  assert.deepEqual(box.lost, [1]);
  assert.match(box.lostNote() ?? "", /^1 sample \(seq 1\) could not be stored: the control store refused them/);
  let n = 0;
  await assert.rejects(
    untilStored(
      "x",
      async () => Promise.reject(Object.assign(new Error(`refused ${++n}`), { code: "23503" })),
      () => undefined,
      () => false,
    ),
    /refused 1/,
  );
});
