// The in-doubt operation whose write took effect: committed on the server, its reply never reached the runner. A
// kill-backend phase rarely lands there (the kill races the commit, and nearly always wins before it), so these runs
// go through a TCP proxy of this file's that forwards every byte between the runner and the embedded Postgres, and,
// when armed, ends a loop's connection at the server's CommandComplete of a write that committed (an autocommit
// INSERT, or a COMMIT) instead of passing it on: the server has committed, the runner sees its connection lost
// mid-statement. The loop reconnects (the run has a kill-backend phase, so its loops reconnect), counts the operation
// in doubt, and verification must settle it as done: had it been settled as not done, the runner's counts would miss
// the row the target holds and verification would fail, naming it.
import assert from "node:assert/strict";
import net from "node:net";
import { after, before, test } from "node:test";
import { factOf } from "../../lib/measurement/verification";
import { parseConfig, type WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { testDatabase } from "../../lib/testing";
import { runWorkload, verificationError } from "../harness";

let db: Awaited<ReturnType<typeof testDatabase>>;
before(async () => {
  db = await testDatabase("reply_lost");
});
after(() => db.drop());

const IN_DOUBT = "operations in doubt (connection lost before the reply; settled either way)";

/** A cut to make once: the next CommandComplete whose tag matches `tag` on a connection whose application_name
 *  matches `app`. `done` says which it cut. */
interface Cut {
  app: RegExp;
  tag: RegExp;
  done?: string;
}

/** The application_name in a startup message (int32 length, int32 protocol, then name\0value\0 pairs), or "". */
function applicationNameOf(startup: Buffer): string {
  const words = startup.subarray(8).toString("utf8").split("\0");
  const at = words.indexOf("application_name");
  return at >= 0 ? words[at + 1] : "";
}

/** A proxy on 127.0.0.1 to `upstreamPort` that makes the cuts armed (push onto `armed`) and forwards all else. */
async function cuttingProxy(upstreamPort: number) {
  const armed: Cut[] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(upstreamPort, "127.0.0.1");
    let app: string | null = null;
    let pending = Buffer.alloc(0);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close);
    upstream.on("error", close);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.on("data", (b) => {
      app ??= applicationNameOf(b); // the first bytes a client sends are its startup message
      upstream.write(b);
    });
    // The server's messages, each a type byte and an int32 length that counts itself: passed on whole, one by one,
    // until an armed cut matches a CommandComplete whose ReadyForQuery after it says the session is idle, outside a
    // transaction: the statement committed (an autocommit write, or a COMMIT). One inside a transaction is passed on
    // (the server rolls back a transaction whose connection goes before its COMMIT: nothing of it would be in doubt).
    const complete = (at: number) => pending.length - at >= 5 && pending.length - at >= 1 + pending.readInt32BE(at + 1);
    upstream.on("data", (b) => {
      pending = Buffer.concat([pending, b]);
      let sent = 0;
      while (complete(sent)) {
        const len = pending.readInt32BE(sent + 1);
        if (pending[sent] === 0x43 /* C: CommandComplete */) {
          const tag = pending
            .subarray(sent + 5, sent + len)
            .toString("utf8")
            .replace(/\0$/, "");
          const cut = armed.find((c) => !c.done && c.app.test(app ?? "") && c.tag.test(tag));
          const next = sent + 1 + len;
          if (cut && !complete(next)) break; // its ReadyForQuery is still to come: held until it has
          if (cut && pending[next] === 0x5a /* Z */ && pending[next + 5] === 0x49 /* I: idle */) {
            cut.done = `${app}: ${tag}`;
            client.write(pending.subarray(0, sent));
            close();
            return;
          }
        }
        sent += 1 + len;
      }
      client.write(pending.subarray(0, sent));
      pending = pending.subarray(sent);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  return { port, armed, close: () => new Promise((r) => server.close(r)) };
}

const configOf = (input: WorkloadInput): WorkloadConfig => {
  const r = parseConfig(input);
  assert.ok(r.ok, JSON.stringify(!r.ok && r.errors));
  return r.config;
};

/**
 * Runs `input` through the proxy, arming `cuts` one after the other once the measured window is 1 s in (each armed
 * when the one before it was made, so the run recovers in between), and returns its summary with the cuts made.
 */
async function runWithCuts(input: WorkloadInput, cuts: Cut[]) {
  const proxy = await cuttingProxy(Number(new URL(db.url).port));
  const url = new URL(db.url);
  url.port = String(proxy.port);
  let arming: NodeJS.Timeout | undefined;
  // The next cut is armed a second after the one before it was made (the run back at its pace), until all are.
  const armNext = () => {
    const last = proxy.armed.at(-1);
    if (!last || last.done) {
      const next = cuts[proxy.armed.length];
      if (!next) return;
      proxy.armed.push(next);
    }
    arming = setTimeout(armNext, 1000);
  };
  try {
    const s = await runWorkload(configOf(input), url.toString(), {
      drainSeconds: 5,
      onPhase: (p) => {
        if (p === "measuring") arming = setTimeout(armNext, 1000);
      },
    });
    return { s, made: cuts.map((c) => c.done) };
  } finally {
    clearTimeout(arming);
    await proxy.close();
  }
}

test("a queue writer's INSERT and a reader's COMMIT, committed on the server with their replies lost: counted in doubt, settled as done, verification exact", async () => {
  // A kill at 1 s, in the warm-up, puts the run's loops in reconnecting mode; the cuts come in the measured window.
  const { s, made } = await runWithCuts(
    { kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 200, warmupSeconds: 2, durationSeconds: 8, phases: "kill-backend@1s" },
    [
      { app: /^pgbb writer/, tag: /^INSERT 0 1$/ },
      { app: /^pgbb reader/, tag: /^COMMIT$/ },
    ],
  );
  assert.ok(
    made.every((m) => m),
    `both cuts made: ${JSON.stringify(made)}`,
  );
  assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  const inDoubt = Number(factOf(s.verification, IN_DOUBT));
  assert.ok(inDoubt >= 2, `the two cut operations are among those in doubt: ${inDoubt}`);
  // Each settled as done: the cut insert found stored, the cut dequeue found archived.
  const note = (s.notes ?? []).find((n) => /in doubt, sent when a connection was lost/.test(n)) ?? "";
  const m = /\((\d+) stored, \d+ not\); .* \((\d+) committed, \d+ not\)/.exec(note);
  assert.ok(m && Number(m[1]) >= 1 && Number(m[2]) >= 1, note);
});

test("a workflows run's write committed on the server with its reply lost: settled from the target, every workflow still completed exactly once", async () => {
  const { s, made } = await runWithCuts({ kind: "workflows", warmupSeconds: 1, durationSeconds: 6, phases: "kill-backend@1s" }, [
    { app: /^pgbb conn/, tag: /^(COMMIT|INSERT 0 1|UPDATE 1)$/ },
  ]);
  assert.ok(made[0], "the cut was made");
  assert.equal(s.verification.ok, true, verificationError(s) ?? "");
  assert.ok(Number(factOf(s.verification, IN_DOUBT)) >= 1, JSON.stringify(s.verification.facts));
  // The cut write settled as committed: a start, a checkpoint or a completion found in the tables.
  const note = (s.notes ?? []).find((n) => /settled from workflow_status and operation_outputs/.test(n)) ?? "";
  const committed = [...note.matchAll(/\((\d+) committed, \d+ not\)/g)].reduce((sum, x) => sum + Number(x[1]), 0);
  assert.ok(committed >= 1, note);
});
