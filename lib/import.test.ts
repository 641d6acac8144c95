// The import parser against real output of the reference tool (fixtures/kozlovski/tool-output/, copied from the reference tool's runs)
// and against broken copies of it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ImportError, maskSecrets, parseCommand, parseGoDuration, parseToolOutput } from "./import";
import { TOOL_OUTPUT_DIR } from "./paths";

const OUT = TOOL_OUTPUT_DIR;
const PUBSUB = readFileSync(path.join(OUT, "pubsub-4vcpu-preset-30s.txt"), "utf8");
const QUEUE = readFileSync(path.join(OUT, "queue-4vcpu-preset-30s.txt"), "utf8");

function throwsAt(fn: () => unknown, line: number | undefined, re: RegExp) {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ImportError, `not an ImportError: ${err}`);
    assert.equal(err.line, line, err.message);
    assert.match(err.message, re);
    return err.message;
  }
  assert.fail("did not throw");
}

test("Go durations as the tool prints them", () => {
  assert.equal(parseGoDuration("19.202047ms"), 19.202047);
  assert.equal(parseGoDuration("8.560574463s"), 8560.574463);
  assert.equal(parseGoDuration("0s"), 0);
  assert.equal(parseGoDuration("2m0s"), 120000);
  assert.equal(parseGoDuration("1h2m3.5s"), 3723500);
  assert.equal(parseGoDuration("750µs"), 0.75);
  assert.equal(parseGoDuration("500ns"), 0.0005);
  assert.equal(parseGoDuration("banana"), null);
  assert.equal(parseGoDuration("12"), null);
  assert.equal(parseGoDuration(""), null);
});

test("a real pubsub output: summary, per-group and aggregate blocks, live lines", () => {
  const s = parseToolOutput(PUBSUB);
  assert.equal(s.workload, "pubsub");
  assert.deepEqual(s.totals, { writes: 153500, reads: 767000, updates: 767000, writeErrors: 100, readErrors: 0 });
  assert.equal(s.throughput.writeMsgPerSec, 5116.67);
  assert.equal(s.throughput.readMsgPerSec, 25566.67); // aggregate block, all 5 groups
  assert.deepEqual(s.latencyMs.write, {
    p50: { raw: "19.202047ms", ms: 19.202047 },
    p95: { raw: "55.508991ms", ms: 55.508991 },
    p99: { raw: "85.262335ms", ms: 85.262335 },
  });
  // read/e2e from the aggregate, never the base summary's meaningless 0s
  assert.equal(s.latencyMs.read?.p50.ms, 10.256383);
  assert.equal(s.latencyMs.e2e?.p99.raw, "144.441343ms");
  assert.equal(s.groups.length, 5);
  assert.equal(s.groups[3].claimErrors, 3);
  assert.equal(s.groups[2].latencyMs.e2e.p99.ms, 176.291839);
  assert.deepEqual(s.pubsub, { claimErrors: 7, emptyClaims: 45627, avgPollSize: 103.43, deliverySemantics: "at-least-once (strict ordering)" });
  // config from the output itself, what could be inferred, and nothing guessed
  assert.deepEqual(s.config, { partitions: 4, consumerGroups: 5, durationSeconds: 30, readers: 4, writers: 10, readBatch: 200, reportIntervalSeconds: 5 });
  assert.equal(s.configSources.writers, "output");
  assert.equal(s.configSources.readBatch, "inferred");
  assert.equal((s.config as Record<string, unknown>).payloadBytes, undefined);
  assert.equal(s.intervals.length, 5);
  assert.deepEqual(s.intervals[0], { time: "04:35:24", elapsedSec: 5, writeMsgPerSec: 6960, readMsgPerSec: 34779, backlog: 100 });
  assert.equal(s.intervals[4].elapsedSec, 25);
  assert.ok(s.notes.some((n) => /print 0s in pubsub mode/.test(n)));
});

test("a real queue output", () => {
  const s = parseToolOutput(QUEUE);
  assert.equal(s.workload, "queue");
  assert.deepEqual(s.totals, { writes: 89218, reads: 41674, updates: 41674, writeErrors: 0, readErrors: 5 });
  assert.deepEqual(s.throughput, { writeMsgPerSec: 2973.93, readMsgPerSec: 1389.13 });
  assert.equal(s.latencyMs.e2e?.p50.raw, "8.560574463s");
  assert.equal(s.latencyMs.e2e?.p50.ms, 8560.574463);
  assert.equal(s.latencyMs.read?.p99.ms, 23.003135);
  assert.equal(s.config.durationSeconds, 30); // 89218 / 2973.93 = 30.0
  assert.equal(s.configSources.durationSeconds, "inferred");
  assert.equal(s.intervals.length, 5);
  assert.equal(s.intervals[4].backlog, 39507);
  assert.equal(s.groups.length, 0);
});

test("a command line fills in the config; flags it omits take the tool's defaults; the password is masked", () => {
  const cmd = "./pg_msg_bench --host=localhost --password=s3cret --writers=10 --readers=15 --duration=30s --throttle_writes=2900 --mode=queue";
  const s = parseToolOutput(QUEUE, { command: cmd });
  assert.deepEqual(s.config, { writers: 10, readers: 15, durationSeconds: 30, throttleWritesPerSec: 2900, payloadBytes: 1024, reportIntervalSeconds: 5, tuneTableVacuum: false });
  assert.equal(s.configSources.writers, "command");
  assert.equal(s.configSources.payloadBytes, "default");
  assert.equal(s.command?.includes("s3cret"), false);
  assert.match(s.command!, /--password=\*\*\*\*/);
  // A command pasted as the first lines of the text works as well, with line continuations.
  const s2 = parseToolOutput(`$ ./pg_msg_bench --writers=10 \\\n   --readers=4 --consumer-groups 5 --partitions 4 --write-batch 100 --read-batch 200 --mode=pubsub --duration=30s --throttle_writes=5000\n${PUBSUB}`);
  assert.equal(s2.config.writeBatch, 100);
  assert.equal(s2.config.throttleWritesPerSec, 5000);
  assert.equal(s2.configSources.partitions, "command");
  assert.equal(maskSecrets("-password 'a b' --x"), "-password **** --x");
});

test("a command whose mode contradicts the output is refused", () => {
  throwsAt(() => parseToolOutput(QUEUE, { command: "./pg_msg_bench --mode=pubsub" }), undefined, /says --mode=pubsub, but the output is of a queue run/);
  throwsAt(() => parseCommand("./pg_msg_bench --writers=ten"), undefined, /--writers must be a whole number, found 'ten'/);
  throwsAt(() => parseCommand("./pg_msg_bench --fast"), undefined, /unknown flag '--fast'/);
});

test("malformed pastes name the line that could not be read", () => {
  const lines = QUEUE.split("\n");
  const p50 = lines.findIndex((l) => l.includes("P50: 1.653759ms"));
  const broken = [...lines];
  broken[p50] = "  P50: banana";
  const msg = throwsAt(() => parseToolOutput(broken.join("\n")), p50 + 1, /expected 'P50: <duration>' but found 'P50: banana'/);
  assert.match(msg, new RegExp(`^line ${p50 + 1}: `));

  const tw = lines.findIndex((l) => l.startsWith("Total Writes"));
  const b2 = [...lines];
  b2[tw] = "Total Writes: lots";
  throwsAt(() => parseToolOutput(b2.join("\n")), tw + 1, /expected 'Total Writes: <number>' but found 'Total Writes: lots'/);

  const b3 = [...lines];
  b3.splice(2, 0, "hello world");
  throwsAt(() => parseToolOutput(b3.join("\n")), 3, /could not read 'hello world'/);

  // A pubsub group table cut by a foreign line.
  const pl = PUBSUB.split("\n");
  const row = pl.findIndex((l) => /^\s+2\s+6940/.test(l));
  const b4 = [...pl];
  b4[row] = "  2      6940     oops";
  throwsAt(() => parseToolOutput(b4.join("\n")), row + 1, /expected a group row/);
});

test("cut-off and foreign texts are refused with a reason", () => {
  const lines = QUEUE.split("\n");
  const readHeader = lines.findIndex((l) => l.startsWith("Read Latencies"));
  const cut = lines.slice(0, readHeader + 2).join("\n");
  throwsAt(() => parseToolOutput(cut), readHeader + 2, /expected 'P95: <duration>' after this line, but the text ends there/);
  throwsAt(() => parseToolOutput(lines.slice(0, 5).join("\n")), undefined, /no '=== Summary ===' block after the 5 live report lines/);
  throwsAt(() => parseToolOutput("   \n"), undefined, /the text is empty/);
  const noAgg = PUBSUB.slice(0, PUBSUB.indexOf("=== Aggregate Across All Groups ==="));
  throwsAt(() => parseToolOutput(noAgg), undefined, /'=== Aggregate Across All Groups ===' block is missing/);
});

test("CRLF line endings and trailing spaces are fine", () => {
  const s = parseToolOutput(PUBSUB.replace(/\n/g, "  \r\n"));
  assert.equal(s.totals.writes, 153500);
});
