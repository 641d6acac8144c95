import assert from "node:assert/strict";
import { test } from "node:test";
import { uuid7 } from "./uuid7";

test("a UUIDv7 has version 7, variant 10 and the time in its first 48 bits", () => {
  const before = Date.now();
  const id = uuid7();
  const after = Date.now();
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const ms = Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16);
  assert.ok(ms >= before && ms <= after + 1, `time ${ms} not in [${before}, ${after}]`);
});

test("ids are strictly increasing, within a millisecond and across them", () => {
  const t = Date.now() + 10_000; // ahead of the other test's ids
  const ids = [...Array.from({ length: 5000 }, () => uuid7(t)), ...Array.from({ length: 100 }, (_, i) => uuid7(t + 5 + i))];
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1] < ids[i], `id ${i} (${ids[i]}) is not after ${ids[i - 1]}`);
  assert.equal(new Set(ids).size, ids.length);
  // 5,000 in one millisecond overflow the 12-bit counter: the excess borrows the next milliseconds, still ordered.
  assert.ok(ids.slice(0, 5000).every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7/.test(id)));
});

test("the random part varies", () => {
  const tails = new Set(Array.from({ length: 100 }, () => uuid7().slice(19)));
  assert.equal(tails.size, 100);
});
