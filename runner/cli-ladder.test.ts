// The synchronous commit ladder from the CLI as a user runs it: a real process against the embedded Postgres,
// `--sync-commit on,off --repeats 2` runs four short runs in the balanced order, each at its level (the sessions'
// synchronous_commit recorded in its summary), prints a row per level, writes the set with --json and stores the
// group with --save; a level that is none exits 2 naming it and the choices.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { prisma } from "../lib/db";
import { getLadderGroup } from "../lib/ladder/store";
import { RunSummary } from "../lib/measurement/summary";
import { testControlStore, testDatabase } from "../lib/testing";
import { runCli } from "./cli-testing";

let target: { url: string; drop: () => Promise<void> };
let control: { url: string; drop: () => Promise<void> };
let dir: string;

before(async () => {
  target = await testDatabase("ladder_target");
  control = await testControlStore("ladder_control");
  dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-ladder-"));
});
after(async () => {
  await prisma().$disconnect();
  await target.drop();
  await control.drop();
  rmSync(dir, { recursive: true, force: true });
});

// The runs go to the test's target, stored in the test's control store.
const bench = (args: string[]) => runCli(args, dir, { DATABASE_URL: control.url });

test("a level that is none, or a ladder beside an A/B or a single level, exits 2 naming what is wrong", async () => {
  const level = await bench(["queue", "--sync-commit", "off,remote_flush", "--target", target.url]);
  assert.equal(level.code, 2);
  assert.match(
    level.err,
    /^bench: --sync-commit off,remote_flush: "remote_flush" is not a synchronous_commit level: use off, local, remote_write, on or remote_apply/,
  );
  const repeats = await bench(["queue", "--sync-commit=off", "--repeats", "0", "--target", target.url]);
  assert.match(repeats.err, /^bench: --repeats 0: repeats must be at least 1/);
  const alone = await bench(["queue", "--repeats", "2", "--target", target.url]);
  assert.match(alone.err, /^bench: --repeats applies to the synchronous commit ladder only/);
  const twice = await bench(["queue", "--sync-commit", "off,on", "--synchronous-commit", "local", "--target", target.url]);
  assert.match(twice.err, /^bench: --synchronous-commit local sets one level, --sync-commit runs each of its levels: give one/);
});

test("--sync-commit on,off --repeats 2 runs each level twice in balanced order, prints each level, writes and stores the set, named and tagged", async () => {
  const file = path.join(dir, "ladder.json");
  const flags = ["-writers", "1", "-readers", "1", "-throttle_writes", "100", "-duration", "1s", "--warmup", "0s"];
  const r = await bench([
    "queue",
    ...flags,
    "--target",
    target.url,
    "--sync-commit",
    "on,off",
    "--repeats",
    "2",
    "--json",
    file,
    "--save",
    "--name",
    "WAL ladder",
    "--tag",
    "pg18",
  ]);
  assert.equal(r.code, 0, `${r.out}\n${r.err}`);
  // The order: round 1 up the levels (off, then on), round 2 down them.
  const headings = [...r.out.matchAll(/^--- round (\d) of 2: synchronous_commit (\w+) \(\d of 4\) ---$/gm)].map((m) => `${m[1]}:${m[2]}`);
  assert.deepEqual(headings, ["1:off", "1:on", "2:on", "2:off"]);
  assert.match(
    r.out,
    /=== synchronous commit ladder \(queue\) ===\nsynchronous commit ladder \(queue\): 2 repeats of each level, order off → on, then on → off\n/,
  );
  // A row per level, each over its 2 runs: write and end-to-end at p50 and p99, the rate, what a commit waited for.
  assert.match(r.out, /\nlevel +runs +write p50 +write p99 +end-to-end p50 +end-to-end p99 +msg\/s +SyncRep wait +commit waits for/);
  assert.match(r.out, /\noff +2 +[\d.]+ ms \[[\d.]+–[\d.]+\] /);
  assert.match(r.out, /\non +2 +[\d.]+ ms \[[\d.]+–[\d.]+\] /);
  assert.match(r.out, /No standbys: the target had none/);
  assert.match(r.out, /2016 ladder: pgbench on PostgreSQL 9\.6 \(Cybertec, 2016\)/);

  // --json: the set, each run's summary at its level, as every session of it had it.
  const set = JSON.parse(readFileSync(file, "utf8")) as {
    labels: unknown;
    ladder: { levels: { level: string }[] };
    runs: { round: number; level: string; runId: string; summary: unknown }[];
  };
  assert.deepEqual(
    set.ladder.levels.map((l) => l.level),
    ["off", "on"],
  );
  assert.deepEqual(
    set.runs.map((x) => `${x.round}:${x.level}`),
    ["1:off", "1:on", "2:on", "2:off"],
  );
  assert.deepEqual(set.labels, { name: "WAL ladder", notes: null, tags: ["pg18"] });
  for (const run of set.runs) {
    const s = RunSummary.parse(run.summary);
    assert.equal(s.config.synchronousCommit, run.level);
    assert.equal(s.manifest.serverSettings.synchronous_commit, run.level, run.runId);
    assert.equal(s.telemetry?.info.synchronousCommit, run.level, `${run.runId}: the telemetry's own session`);
  }

  // --save: each run stored, and the group with its order, reachable at its page.
  const id = r.out.match(/in the app: \/runs\/ladder\?group=(sc_[0-9a-f]{12})/)?.[1];
  assert.ok(id, r.out);
  const group = await getLadderGroup(id, prisma(control.url));
  assert.deepEqual(group?.levels, ["off", "on"]);
  assert.equal(group?.repeats, 2);
  assert.deepEqual(group?.labels, { name: "WAL ladder", notes: null, tags: ["pg18"] });
  assert.deepEqual(
    group?.slots.map((x) => `${x.round}:${x.level}:${x.runId}`),
    set.runs.map((x) => `${x.round}:${x.level}:${x.runId}`),
  );
  const stored = await prisma(control.url).run.findMany({
    where: { id: { in: group!.slots.map((x) => x.runId) } },
    select: { id: true, status: true, name: true, tags: true },
  });
  assert.deepEqual(
    stored.map((x) => x.status),
    ["completed", "completed", "completed", "completed"],
  );
  // Each run is named after the ladder and its place in it, and has its tags.
  const byId = new Map(stored.map((x) => [x.id, x]));
  assert.deepEqual(
    group!.slots.map((x) => [byId.get(x.runId)?.name, byId.get(x.runId)?.tags]),
    group!.slots.map((x) => [`WAL ladder · ${x.level}, round ${x.round}`, ["pg18"]]),
  );
});
