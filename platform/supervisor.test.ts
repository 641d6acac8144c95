import assert from "node:assert/strict";
import { test } from "node:test";
import { storeErrorText } from "../lib/status/health";
import { DiskFullError } from "./embedded";
import { Supervisor, type Incarnation } from "./supervisor";

/** A fake child: its death is triggered by the test. */
function fakeChild() {
  let die!: (how: string) => void;
  const exited = new Promise<string>((r) => (die = r));
  let stopped = false;
  const inc: Incarnation = { exited, stop: async () => void (stopped = true) };
  return { inc, die, isStopped: () => stopped };
}

test("a child that dies is restarted after the back-off, told first, and stopped on stop()", async () => {
  const children: ReturnType<typeof fakeChild>[] = [];
  const deaths: string[] = [];
  const lines: string[] = [];
  const sup = new Supervisor({
    name: "runner",
    start: async () => {
      const c = fakeChild();
      children.push(c);
      return c.inc;
    },
    onDeath: (how) => void deaths.push(how),
    log: (l) => lines.push(l),
    minBackoffMs: 200,
  });
  await sup.firstStart;
  assert.equal(sup.state.state, "up");
  const t0 = Date.now();
  children[0].die("SIGKILL");
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(deaths, ["SIGKILL"], "told at once, before the back-off");
  assert.equal(sup.state.state, "restarting");
  while (children.length < 2) await new Promise((r) => setTimeout(r, 10));
  assert.ok(Date.now() - t0 >= 200, "waited the back-off by the clock");
  assert.match(lines[0], /the runner stopped unexpectedly \(SIGKILL\); restarting it in 0 s \(restart #1\)/);
  children[1].die("exit code 1");
  while (children.length < 3) await new Promise((r) => setTimeout(r, 10));
  assert.ok(Date.now() - t0 >= 600, "the back-off doubles while it keeps dying");
  await sup.stop();
  assert.ok(children[2].isStopped());
  assert.equal(sup.state.state, "stopped");
});

test("once held (the product stopping), a child that exits is not restarted and nothing says it stopped unexpectedly", async () => {
  const children: ReturnType<typeof fakeChild>[] = [];
  const lines: string[] = [];
  const sup = new Supervisor({
    name: "default target's embedded Postgres",
    start: async () => {
      const c = fakeChild();
      children.push(c);
      return c.inc;
    },
    log: (l) => lines.push(l),
    minBackoffMs: 10,
  });
  await sup.firstStart;
  sup.hold();
  children[0].die("exit code 0");
  const until = Date.now() + 10_000;
  while (sup.state.state !== "stopped" && Date.now() < until && children.length === 1) await new Promise((r) => setTimeout(r, 10));
  assert.equal(sup.state.state, "stopped", `${sup.state.state}: ${sup.state.detail}`);
  assert.match(sup.state.detail, /exited \(exit code 0\) while the product was stopping/);
  await new Promise((r) => setTimeout(r, 50)); // longer than the back-off: a restart would have come
  assert.equal(children.length, 1, "not restarted");
  assert.deepEqual(lines, []);
  await sup.stop();
});

test("a failing first start is reported to the caller", async () => {
  const sup = new Supervisor({ name: "x", start: async () => Promise.reject(new Error("port in use")) });
  await assert.rejects(sup.firstStart, /port in use/);
});

test("a restart that fails for a full disk is not retried: the state and the log say why, and the owner is told", async () => {
  const children: ReturnType<typeof fakeChild>[] = [];
  const lines: string[] = [];
  const gaveUp: unknown[] = [];
  const full = new DiskFullError(
    "The embedded Postgres cannot start: no space left on its disk: the disk holding /d/pg (mounted at /d) has 0 B free of 96 MiB.",
  );
  const sup = new Supervisor({
    name: "control store's embedded Postgres",
    start: async () => {
      if (children.length === 1) throw full;
      const c = fakeChild();
      children.push(c);
      return c.inc;
    },
    isFatal: (err) => err instanceof DiskFullError,
    onGiveUp: (err) => void gaveUp.push(err),
    log: (l) => lines.push(l),
    minBackoffMs: 50,
  });
  await sup.firstStart;
  children[0].die("SIGKILL");
  const until = Date.now() + 10_000;
  while (gaveUp.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(gaveUp, [full]);
  assert.equal(sup.state.state, "stopped");
  assert.match(sup.state.detail, /no space left on its disk: the disk holding \/d\/pg/);
  assert.match(lines.at(-1) ?? "", /could not be started again, and is not retried: The embedded Postgres cannot start: no space left/);
  assert.equal(children.length, 1, "no further start");
  await sup.stop();
});

test("control-store errors are named in one line, never blank", () => {
  const prismaLike = Object.assign(new Error("\nInvalid `db.run.findUnique()` invocation:\n\n\nCan't reach database server at 127.0.0.1:5432"), {
    code: "P1001",
  });
  assert.equal(storeErrorText(prismaLike), "connection refused");
  assert.equal(storeErrorText(new Error("x", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) })), "connection refused");
  assert.equal(storeErrorText(new Error("\n\nsomething odd happened\n")), "something odd happened");
  assert.notEqual(storeErrorText(new Error("")), "");
});
