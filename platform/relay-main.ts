// The delay relay's own process (started by platform/relay.ts): for each route, listens on 127.0.0.1:listen and
// passes every connection's bytes to 127.0.0.1:to and back, each chunk held `delayMs` in each direction. A process
// of its own, so the load generator's work never bends the delay. Sub-millisecond delays cannot come from timers
// (setTimeout has 1 ms granularity and may fire up to ~1.8 ms early), so held chunks wait in a deadline queue
// checked against the hrtime clock: a timer sleeps until ~2 ms before the next deadline, then the thread sleeps in
// slices of at most 100 µs (Atomics.wait, no CPU burnt) with the event loop run between slices, so a chunk arriving
// meanwhile is stamped at most one slice late. A chunk is never sent before its deadline; it may be sent later.
// Configuration: the PGBB_RELAY environment variable, { routes: [{ listen, to }], delayMs }.
import net from "node:net";
import { exitWithParent } from "./children";

interface Held {
  at: bigint;
  to: net.Socket;
  /** A chunk, or null for the end of its direction (sent once the data before it is). */
  chunk: Buffer | null;
}

const { routes, delayMs } = JSON.parse(process.env.PGBB_RELAY ?? "{}") as { routes: { listen: number; to: number }[]; delayMs: number };
const delayNs = BigInt(Math.round(delayMs * 1e6));
const SLICE_MS = 0.1;
const TIMER_MARGIN_MS = 2;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

const held: Held[] = [];
let head = 0;
let armed = false;

/** Every deadline is its arrival plus one delay, so one FIFO holds them in deadline order. */
function hold(to: net.Socket, chunk: Buffer | null) {
  held.push({ at: process.hrtime.bigint() + delayNs, to, chunk });
  arm();
}

function release() {
  armed = false;
  const now = process.hrtime.bigint();
  while (head < held.length && held[head].at <= now) {
    const { to, chunk } = held[head++];
    if (to.destroyed) continue;
    if (!chunk) to.end();
    else if (!to.write(chunk)) peer.get(to)?.pause(); // resumed on "drain"
  }
  if (head > 1024 && head * 2 > held.length) {
    held.splice(0, head);
    head = 0;
  }
  arm();
}

function arm() {
  if (armed || head >= held.length) return;
  armed = true;
  const waitMs = Number(held[head].at - process.hrtime.bigint()) / 1e6;
  if (waitMs > TIMER_MARGIN_MS) setTimeout(release, waitMs - TIMER_MARGIN_MS);
  else {
    if (waitMs > 0) Atomics.wait(sleeper, 0, 0, Math.min(waitMs, SLICE_MS));
    setImmediate(release);
  }
}

/** Each socket's other end: the one that pauses while this one's written data waits in the kernel. */
const peer = new WeakMap<net.Socket, net.Socket>();

/** One direction: what `from` reads is held, then written to `to`. */
function pipeDelayed(from: net.Socket, to: net.Socket) {
  peer.set(to, from);
  from.on("data", (chunk) => hold(to, chunk));
  from.on("end", () => hold(to, null));
  to.on("drain", () => from.resume());
}

function serve(listen: number, to: number): Promise<void> {
  const server = net.createServer({ noDelay: true, allowHalfOpen: true }, (client) => {
    const upstream = net.connect({ host: "127.0.0.1", port: to, noDelay: true, allowHalfOpen: true });
    pipeDelayed(client, upstream);
    pipeDelayed(upstream, client);
    const reset = () => (client.destroy(), upstream.destroy());
    client.on("error", reset);
    upstream.on("error", reset);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen, "127.0.0.1", () => resolve());
  });
}

exitWithParent(() => undefined);
Promise.all(routes.map((r) => serve(r.listen, r.to))).then(
  () => process.send?.({ ready: true }),
  (err: Error) => {
    process.send?.({ error: err.message });
    process.exit(1);
  },
);
