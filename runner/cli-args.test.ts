import assert from "node:assert/strict";
import os from "node:os";
import { test } from "node:test";
import { toCliCommand } from "../lib/runs/cli-command";
import { backoffOf, presetById, PRESETS, WorkloadConfig } from "../lib/workloads/config";
import { partsProblem } from "../lib/workloads/parts";
import { parseArgs, parseDuration, processesOf, workloadUsage } from "./cli-args";

const run = (argv: string[]) => {
  const r = parseArgs(argv);
  if (r.kind !== "run") throw new Error(r.kind === "error" ? r.message : "help");
  return r.options;
};
const error = (argv: string[]) => {
  const r = parseArgs(argv);
  assert.equal(r.kind, "error", `expected an error for ${argv.join(" ")}`);
  return (r as { message: string }).message;
};
/** Splits a shell command line the way sh would for the quoting lib/runs/cli-command.ts produces. */
const shellSplit = (cmd: string) => [...cmd.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]));

test("durations: Go-style and plain seconds; fractions are refused", () => {
  assert.equal(parseDuration("30s"), 30);
  assert.equal(parseDuration("2m"), 120);
  assert.equal(parseDuration("1m30s"), 90);
  assert.equal(parseDuration("1h"), 3600);
  assert.equal(parseDuration("45"), 45);
  for (const bad of ["500ms", "1.5s", "", "s", "3x"]) assert.equal(parseDuration(bad), null, bad);
});

test("the reference's flag names in every spelling Go's flag package accepts", () => {
  const a = run([
    "pubsub",
    "-writers",
    "10",
    "--readers=4",
    "-consumer-groups=5",
    "--partitions",
    "4",
    "-write-batch",
    "100",
    "-read-batch",
    "200",
    "-payload",
    "512",
    "-duration",
    "2m",
    "-throttle_writes",
    "5000",
    "-report",
    "3s",
    "--warmup",
    "1m30s",
  ]);
  assert.deepEqual(
    a.config,
    WorkloadConfig.parse({
      kind: "pubsub",
      writers: 10,
      readers: 4,
      consumerGroups: 5,
      partitions: 4,
      writeBatch: 100,
      readBatch: 200,
      payloadBytes: 512,
      durationSeconds: 120,
      throttleWritesPerSec: 5000,
      reportIntervalSeconds: 3,
      warmupSeconds: 90,
    }),
  );
  const q = run(["-mode=queue", "-tune-table-vacuum", "--throttle-writes", "2900", "--json", "out.json", "--save"]);
  assert.equal(q.config.kind, "queue");
  assert.equal(q.config.kind === "queue" && q.config.tuneTableVacuum, true);
  assert.equal(q.config.throttleWritesPerSec, 2900);
  assert.equal(q.json, "out.json");
  assert.equal(q.save, true);
  const plain = run(["queue", "-tune-table-vacuum=false"]).config;
  assert.equal(plain.kind === "queue" && plain.writers, 4);
});

test("the published reference command line works as is (-host/-port/-db/-user/-password build the target)", () => {
  const cmd =
    "--host=db.example --port=5432 --db=benchmark --user=postgres --password=postgres --report=5s --write-batch 100 --read-batch 200 --writers=10 --readers=4 --consumer-groups 5 --mode=pubsub --partitions 4 --duration=120s --throttle_writes=5000";
  const o = run(cmd.split(" "));
  assert.equal(o.target, "postgresql://postgres:postgres@db.example:5432/benchmark");
  assert.deepEqual(o.config, WorkloadConfig.parse({ ...presetById("pubsub-4vcpu-single-node")!.config }));
});

test("presets, with flags overriding their fields", () => {
  const o = run(["--preset", "pubsub-4vcpu-single-node", "-duration", "30s"]);
  assert.equal(o.presetId, "pubsub-4vcpu-single-node");
  assert.equal(o.config.durationSeconds, 30);
  assert.equal(o.config.kind === "pubsub" && o.config.consumerGroups, 5);
  const p = run(["pubsub", "--preset", "pubsub-4vcpu-single-node", "-partitions", "8"]);
  assert.equal(p.config.kind === "pubsub" && p.config.readers, 8, "readers follow an overridden partition count");
  for (const preset of PRESETS) assert.equal(run(["--preset", preset.id]).config.kind, preset.config.kind);
});

test("every command lib/runs/cli-command.ts shows for a run parses back to the same config", () => {
  for (const preset of PRESETS) {
    const config = WorkloadConfig.parse(preset.config);
    for (const target of [undefined, "postgresql://u:****@db.example:5432/app?sslmode=require", "postgresql://o'neil:****@h/db"]) {
      const words = shellSplit(toCliCommand(config, target));
      assert.deepEqual(words.slice(0, 3), ["npm", "run", "bench"]);
      assert.equal(words[3], "--");
      const o = run(words.slice(4));
      assert.deepEqual(o.config, config, preset.id);
      assert.equal(o.target, target);
    }
  }
});

test("bad flags and impossible combinations name the problem", () => {
  assert.equal(error(["pubsub", "-writers", "ten"]), 'invalid pubsub settings: -writers: Writers must be a whole number, not "ten"');
  assert.equal(
    error(["queue", "-readers", "-2", "-payload", "1.5"]),
    'invalid queue settings: -readers: Readers must be at least 1; -payload: Payload must be a whole number, not "1.5"',
  );
  assert.match(error(["pubsub", "-writerz", "4"]), /unknown flag -writerz \(did you mean -writers\?\)/);
  assert.match(error(["pubsub", "-readers", "3", "-partitions", "4"]), /-readers: Readers per group \(3\) must equal Partitions \(4\)/);
  assert.match(error(["queue", "-partitions", "4"]), /-partitions applies to the pubsub and queued-workflows workloads only, not queue/);
  assert.match(error(["pubsub", "-duration", "500ms"]), /-duration expects a duration in whole seconds/);
  assert.match(error(["pubsub", "-duration", "0s"]), /-duration: Measured duration must be at least 1 s$/);
  assert.match(
    error(["pubsub", "-throttle_writes", "50", "-write-batch", "100"]),
    /-throttle_writes: Write limit \(50 msg\/s\) is below Write batch \(100 msgs\)/,
  );
  assert.match(error(["kafka"]), /unknown workload "kafka": use pubsub, queue, /);
  assert.match(error([]), /which workload\?/);
  assert.match(error(["pubsub", "-writers"]), /-writers needs a value/);
  assert.match(error(["pubsub", "-writers", "1", "-writers", "2"]), /-writers is given twice/);
  assert.match(error(["queue", "--preset", "pubsub-defaults"]), /preset pubsub-defaults is a pubsub workload, but "queue" was asked for/);
  assert.match(error(["--preset", "nope"]), /unknown preset "nope"/);
  assert.match(error(["queue", "--target", "mysql://x@h/db"]), /--target has scheme "mysql"/);
  assert.match(error(["queue", "--target", "postgresql://h/db", "-host", "h"]), /either --target or -host/);
  assert.match(error(["queue", "-save=maybe"]), /-save is a switch/);
  assert.equal(parseArgs(["--help"]).kind, "help");
  assert.match(workloadUsage("pubsub"), /-throttle_writes N/);
});

test("every bad setting at once, each named by its flag and the form's label", () => {
  assert.equal(
    error(["pubsub", "-writers", "0", "-partitions", "2", "-readers", "3", "-duration", "0", "-payload", "0"]),
    "invalid pubsub settings: -writers: Writers must be at least 1; -payload: Payload must be at least 1 byte; -duration: Measured duration must be at least 1 s; " +
      "-readers: Readers per group (3) must equal Partitions (2): each consumer group has exactly one reader per partition, as in the reference tool. Set readers to 2, or leave it out to follow partitions",
  );
  assert.equal(
    error(["queue", "-readers", "0", "-report", "0s"]),
    "invalid queue settings: -readers: Readers must be at least 1; -report: CLI report interval must be at least 1 s",
  );
});

test("-backoff chooses the readers' back-off; the default is the reference's effective one", () => {
  const parse = (argv: string[]) => {
    const r = parseArgs(argv);
    if (r.kind !== "run") throw new Error(r.kind === "error" ? r.message : r.kind);
    const c = r.options.config;
    return { backoff: backoffOf(c) };
  };
  assert.equal(parse(["queue"]).backoff, "reference-effective");
  assert.equal(parse(["pubsub", "-backoff", "nominal"]).backoff, "nominal");
  assert.equal(parse(["pubsub", "--backoff=nominal"]).backoff, "nominal");
  const bad = parseArgs(["queue", "-backoff=sometimes"]);
  assert.equal(bad.kind, "error");
  assert.match(bad.kind === "error" ? bad.message : "", /-backoff: Empty-poll back-off must be one of "reference-effective", "nominal"/);
});

test("durations: one parser (lib/duration.ts) for the CLI's flags and the reference tool's Go syntax", () => {
  assert.equal(parseDuration("1h2m3s"), 3723);
  assert.equal(parseDuration("90s"), 90);
  assert.equal(parseDuration("1m0s"), 60, "the reference tool prints 1m0s");
  assert.equal(parseDuration("2000ms"), 2, "whole seconds in any unit");
  assert.equal(parseDuration("1.5m"), 90, "Go's fractions, when they make whole seconds");
  for (const bad of ["-5s", "1s500ms", "5 s", "s5", "1d"]) assert.equal(parseDuration(bad), null, bad);
});

test("--processes: a number or auto (this machine's cores, stored as the number); anything else is named; a config that cannot split is refused", () => {
  const cores = os.availableParallelism();
  assert.equal(processesOf("auto"), cores);
  assert.equal(processesOf(" AUTO "), cores);
  assert.equal(processesOf("2"), 2);
  for (const bad of ["two", "1.5", "-2", "", "2x"]) assert.equal(processesOf(bad), null, bad);
  assert.equal(run(["queue", "--processes", "1"]).config.processes, 1);
  assert.equal(run(["queue"]).config.processes, 1, "default 1");
  for (const bad of ["two", "1.5", "auto2"])
    assert.match(
      error(["queue", "--processes", bad]),
      new RegExp(
        `^-processes expects a whole number of runner processes \\(1 to 64\\) or auto \\(this machine's ${cores} cores\\), got "${bad.replace(".", "\\.")}"$`,
      ),
    );
  assert.match(error(["queue", "--processes=0"]), /^invalid queue settings: -processes: Runner processes must be at least 1/);
  assert.match(error(["queue", "--processes=65"]), /^invalid queue settings: -processes: Runner processes must be at most 64/);
  // What a split the workload refuses says (lib/workloads/parts.ts partsProblem): its own words, after the flag.
  const one = error(["pubsub", "-partitions", "1", "-writers", "1", "--processes", "2"]);
  const want = partsProblem(WorkloadConfig.parse({ kind: "pubsub", partitions: 1, writers: 1, processes: 2 }));
  assert.ok(want, "one partition cannot be split over 2 processes");
  assert.equal(one, `-processes: ${want}`);
  // auto: the number of cores, accepted or refused by the same rule (never the word stored).
  const argv = ["pubsub", "-partitions", "64", "-writers", "64", "--processes", "auto"];
  const split = partsProblem(WorkloadConfig.parse({ kind: "pubsub", partitions: 64, writers: 64, processes: Math.min(cores, 64) }));
  if (split || cores > 64) assert.match(error(argv), /processes/);
  else assert.equal(run(argv).config.processes, cores);
});

test("a pasted reference command line works with its program's name, with or without a path, as without it", () => {
  const flags =
    "-host db.example -port 5432 -db benchmark -user postgres -password pw -mode queue -writers 10 -readers 15 -duration 30s -throttle_writes 2900".split(" ");
  const bare = run(flags);
  assert.equal(bare.config.kind, "queue");
  assert.equal(bare.target, "postgresql://postgres:pw@db.example:5432/benchmark");
  for (const program of [["./pg_msg_bench"], ["/usr/local/bin/pg_msg_bench"], ["pg_msg_bench"], ["go", "run", "."]])
    assert.deepEqual(run([...program, ...flags]), bare, program.join(" "));
  // The name is the program's only before the flags: a flag's value that ends so is still that value.
  assert.equal(run(["queue", "--json", "out/pg_msg_bench"]).json, "out/pg_msg_bench");
  assert.match(error(["queue", "./pg_msg_bench", "-writers", "1"]), /unexpected argument "\.\/pg_msg_bench"/);
});

test("a flag left empty by an unset shell variable is refused naming that flag, not --target", () => {
  for (const argv of [
    ["queue", "--host="],
    ["queue", "-host", ""],
    ["queue", "-host", "  "],
  ]) {
    const m = error([...argv, "-port", "5432"]);
    assert.match(m, /^-{1,2}host is empty/, argv.join(" "));
    assert.match(m, /shell variable .*unset/);
    assert.doesNotMatch(m, /--target/);
  }
  assert.match(error(["queue", "--host=h", "--password="]), /^--password is empty.*unset/);
  assert.match(error(["queue", "--target="]), /^--target is empty.*unset/);
  // Unquoted, an unset variable leaves no word at all: the next flag is not taken as the value.
  const m = error(["queue", "-host", "-port", "5432"]);
  assert.match(m, /^-host has no value \(the next word is -port\).*unset/);
  // A host or port the URL cannot take is named, not quietly replaced by localhost or 5432.
  assert.match(error(["queue", "-host", "a b/c", "-db", "x"]), /^-host "a b\/c" is not a host name/);
  assert.match(error(["queue", "-host", "h", "-port", "x"]), /^-port must be a port number/);
});

test("--replicas N [--replica-delay D]: standbys of the embedded replicated target, a delay in ms or us each way", () => {
  assert.deepEqual([run(["pubsub", "--replicas", "2"]).replicas, run(["pubsub", "--replicas", "2"]).replicaDelayMs], [2, undefined]);
  for (const [typed, ms] of [
    ["0.5ms", 0.5],
    ["500us", 0.5],
    ["500µs", 0.5],
    ["2ms", 2],
    ["1.5", 1.5],
  ] as const)
    assert.equal(run(["pubsub", "--replicas=3", `--replica_delay=${typed}`]).replicaDelayMs, ms, typed);
  assert.equal(run(["pubsub", "--replicas", "2", "--replica-delay", "0"]).replicaDelayMs, undefined, "no delay: no relay");
  assert.match(
    error(["pubsub", "--replicas", "2", "--target", "postgresql://u@h/db"]),
    /^--replicas runs against the embedded replicated target .*give one or the other/,
  );
  assert.match(error(["pubsub", "--replicas", "2", "-host", "h"]), /^--replicas runs against the embedded replicated target/);
  for (const bad of ["0", "9", "two", "1.5"]) assert.match(error(["pubsub", "--replicas", bad]), /^--replicas expects a number of standbys from 1 to 8/, bad);
  for (const bad of ["1xs", "-1ms", "2s", "fast"])
    assert.match(error(["pubsub", "--replicas", "2", "--replica-delay", bad]), /^--replica-delay expects a delay each way with its unit/, bad);
  assert.match(error(["pubsub", "--replica-delay", "1ms"]), /^--replica-delay applies to the embedded replicated target: add --replicas N/);
});

test("a long run on the command line: --until-autovacuums N, --min-duration, -duration its cap; the preset's, and its command back", () => {
  const o = run(["queue", "--until-autovacuums", "3", "--min-duration", "15m", "-duration", "1h"]);
  const c = o.config as { untilAutovacuums?: number; minDurationSeconds?: number; durationSeconds: number };
  assert.deepEqual([c.untilAutovacuums, c.minDurationSeconds, c.durationSeconds], [3, 900, 3600]);
  const p = run(["--preset", "pg-boss-long-run"]).config as typeof c;
  assert.deepEqual([p.untilAutovacuums, p.minDurationSeconds, p.durationSeconds], [3, 900, 3600]);
  const cmd = toCliCommand(WorkloadConfig.parse(o.config));
  assert.match(cmd, /--until-autovacuums 3/);
  assert.match(cmd, /--min-duration (900|15m)/);
  assert.doesNotMatch(toCliCommand(WorkloadConfig.parse({ kind: "queue" })), /autovacuums|min-duration/, "absent: not named");
  assert.match(error(["queue", "--min-duration", "1m"]), /Minimum duration only applies with Until autovacuums/);
});

test("a queue library's --drain N alone means drain mode; beside --job-mode rate it is refused, naming both", () => {
  const alone = parseArgs(["pg-boss", "--drain", "5000"]);
  assert.ok(alone.kind === "run", JSON.stringify(alone));
  assert.deepEqual(
    [alone.options.config.kind === "pg-boss" && alone.options.config.mode, (alone.options.config as { drainJobs?: number }).drainJobs],
    ["drain", 5000],
  );
  const both = parseArgs(["graphile-worker", "--job-mode", "drain", "--drain", "100"]);
  assert.equal(both.kind === "run" && (both.options.config as { mode?: string }).mode, "drain");
  const rate = parseArgs(["pg-boss", "--job-mode", "rate", "--drain", "100"]);
  assert.equal(rate.kind, "error");
  assert.match(rate.kind === "error" ? rate.message : "", /--drain applies with --job-mode drain only: leave it out, or give --job-mode drain/);
});

test("--name, --tag (repeated, or parted by commas or spaces) and --notes: checked by the app's schema, the message naming the flag", () => {
  const r = parseArgs(["queue", "--name", "WAL on", "--tag", "pg18", "--tag", "wal:on,smoke", "--notes", "first try", "-duration", "5s"]);
  assert.equal(r.kind, "run");
  if (r.kind === "run") assert.deepEqual(r.options.labels, { name: "WAL on", notes: "first try", tags: ["pg18", "wal:on", "smoke"] });
  const none = parseArgs(["queue"]);
  assert.ok(none.kind === "run" && none.options.labels === undefined, "no labels, no key");
  assert.equal(error(["queue", "--name", "n".repeat(121)]), "--name: name is 121 characters long; shorten it to 120 or fewer");
  assert.match(error(["queue", "--tag", "pg18!"]), /^--tag: tag "pg18!" has a character other than letters, digits and - _ \. :/);
  assert.match(error(["queue", "--name", "a", "--name", "b"]), /-name is given twice/);
  assert.match(error(["queue", "--notes", "x".repeat(10_001)]), /^--notes: notes are 10001 characters long; shorten them to 10,000 or fewer/);
});
