// What the tests of a run's live stream share (events.test.ts, live-hub.test.ts): a control store of their own,
// samples in the old stored shape, and the SSE events read back from the stream.
import { after, before } from "node:test";
import { prisma } from "../db";
import { SampleMetrics } from "../measurement/sample";
import { testControlStore } from "../testing";

/** A migrated control store for this test file, in its own database; dropped after the file. */
export function controlStoreForFile(label: string): void {
  let ctl: Awaited<ReturnType<typeof testControlStore>>;
  before(async () => {
    ctl = await testControlStore(label);
  });
  after(async () => {
    await prisma().$disconnect();
    await ctl.drop();
  });
}

export const metrics = (elapsedSec: number): SampleMetrics =>
  // The old stored shape, read through the schema (which converts it).
  SampleMetrics.parse({
    elapsedSec,
    intervalSec: 1,
    writes: { count: 100, msgPerSec: 100, mibPerSec: 0.1, errors: 0 },
    reads: { count: 100, msgPerSec: 100, mibPerSec: 0.1, errors: 0, emptyPolls: 0 },
    groups: [{ group: "g0", msgPerSec: 100, backlog: 0 }],
    backlog: 0,
    latencyMs: {},
    errors: [],
  });

export interface Ev {
  event: string;
  id?: string;
  data: unknown;
}

/**
 * The complete SSE events at the start of `buf` (blocks ended by a blank line; those without data, such as
 * retry: or comments, are skipped), and what is left of it for the next chunk.
 */
export function takeEvents(buf: string): { evs: Ev[]; rest: string } {
  const evs: Ev[] = [];
  let i: number;
  while ((i = buf.indexOf("\n\n")) >= 0) {
    const block = buf.slice(0, i);
    buf = buf.slice(i + 2);
    const ev: Ev = { event: "message", data: undefined };
    let data: string | undefined;
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) ev.event = line.slice(7);
      else if (line.startsWith("id: ")) ev.id = line.slice(4);
      else if (line.startsWith("data: ")) data = line.slice(6);
    }
    if (data !== undefined) evs.push({ ...ev, data: JSON.parse(data) });
  }
  return { evs, rest: buf };
}

export const seqs = (evs: Ev[]) => evs.filter((e) => e.event === "sample").map((e) => Number(e.id));
