// UUIDv7 (RFC 9562 §5.7): 48 bits of Unix time in ms, version 7, 12 bits of counter, variant 10, 62 random
// bits. The counter (§6.2 method 1) makes ids of one process strictly increasing even within a millisecond,
// so a primary key of them is appended at the right-hand edge of its btree, as the study's uuid.uuid7() keys.
import { randomFillSync } from "node:crypto";

const pool = Buffer.alloc(8 * 512);
let poolAt = pool.length;
let lastMs = 0;
let counter = 0;

/** A UUIDv7 in its text form. `now` is the wall clock in ms (a parameter for tests). */
export function uuid7(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = Math.floor(Math.random() * 0x800); // random start, leaving half the 12 bits to count in
  } else if (++counter > 0xfff) {
    // 4,096 ids in one millisecond (or a clock that stepped back): borrow the next millisecond.
    lastMs++;
    counter = 0;
  }
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const b = Buffer.allocUnsafe(16);
  b.writeUIntBE(lastMs, 0, 6);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  pool.copy(b, 8, poolAt, poolAt + 8);
  poolAt += 8;
  b[8] = 0x80 | (b[8] & 0x3f);
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
