// A notification missing after the listener reconnected: explained by its gap when its publish's commit could fall in
// it (its reply after the gap opened, its send before the gap closed), else lost.
import assert from "node:assert/strict";
import { test } from "node:test";
import { PublishTimes } from "./gaps";

test("a missing notification is missed in the gap only when its publish could have committed inside it", () => {
  const t = new PublishTimes();
  // Publisher 0: [send, reply] per sequence number; the gap opens at 100 (the last delivered one's stamp) and closes
  // at 200 (the new LISTEN answered).
  const publishes: [number, number][] = [
    [10, 20], // 1: answered before the gap opened: had a listener
    [90, 110], // 2: sent before, answered inside: may have committed inside
    [150, 160], // 3: inside
    [190, 230], // 4: sent inside, answered after: may have committed inside
    [210, 220], // 5: sent after the new LISTEN was answered: had a listener
    [120, 130], // 6: inside, but received: not missing
  ];
  publishes.forEach(([send, reply], i) => {
    t.sent(0, i + 1, send);
    t.replied(0, i + 1, reply);
  });
  // Publisher 1: one in doubt and not stored, one that failed before it was sent: neither has a reply.
  t.sent(1, 1, 150);
  t.sent(1, 2, 150);
  const received = (p: number, seq: number) => p === 0 && seq === 6;
  assert.deepEqual(t.missing([{ from: 100, to: 200 }], received), { inGaps: 3, lost: 2 });
  // Without a gap every missing one is lost; with two gaps each explains its own.
  assert.deepEqual(t.missing([], received), { inGaps: 0, lost: 5 });
  assert.deepEqual(
    t.missing(
      [
        { from: 0, to: 15 },
        { from: 100, to: 200 },
      ],
      received,
    ),
    { inGaps: 4, lost: 1 },
  );
});
