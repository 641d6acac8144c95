// The import parser against real output of the reference tool (fixtures/kozlovski/tool-output/, copied from the reference tool's runs)
// and against broken copies of it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { parseGoDuration } from "../duration";
import { maskSecrets, parseCommand } from "./command";
import { LIVE_RATE_FACTOR } from "./consistency";
import { parseToolOutput } from "./parse";
import { ImportError } from "./summary";
import { TOOL_OUTPUT_DIR } from "../paths";

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
  assert.deepEqual(s.config, {
    writers: 10,
    readers: 15,
    durationSeconds: 30,
    throttleWritesPerSec: 2900,
    payloadBytes: 1024,
    reportIntervalSeconds: 5,
    tuneTableVacuum: false,
  });
  assert.equal(s.configSources.writers, "command");
  assert.equal(s.configSources.payloadBytes, "default");
  assert.equal(s.command?.includes("s3cret"), false);
  assert.match(s.command!, /--password=\*\*\*\*/);
  // A command pasted as the first lines of the text works as well, with line continuations.
  const s2 = parseToolOutput(
    `$ ./pg_msg_bench --writers=10 \\\n   --readers=4 --consumer-groups 5 --partitions 4 --write-batch 100 --read-batch 200 --mode=pubsub --duration=30s --throttle_writes=5000\n${PUBSUB}`,
  );
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

// ---------- impossible figures: each check, on a real output changed in one place ----------

/** The text with the first line containing `find` replaced by `by` (the line's indentation kept), and its number. */
function edit(text: string, find: string, by: string): { text: string; line: number } {
  const lines = text.split("\n");
  const i = lines.findIndex((l) => l.includes(find));
  assert.ok(i >= 0, `no line with ${find}`);
  lines[i] = lines[i].replace(find, by);
  return { text: lines.join("\n"), line: i + 1 };
}
/** The line number of the n-th (0-based) line containing `find`. */
const lineOf = (text: string, find: string, nth = 0) =>
  text
    .split("\n")
    .map((l, i) => [l, i + 1] as const)
    .filter(([l]) => l.includes(find))[nth][1];

test("negative rates and counts are refused with their line", () => {
  const rate = edit(QUEUE, "Avg Write Throughput: 2973.93 rows/sec", "Avg Write Throughput: -5 rows/sec");
  const msg = throwsAt(() => parseToolOutput(rate.text), rate.line, /'Avg Write Throughput: -5 rows\/sec' is impossible: a rate cannot be negative/);
  assert.match(msg, new RegExp(`^line ${rate.line}: `), "the importer's own error format");
  const count = edit(QUEUE, "Total Reads: 41674", "Total Reads: -41674");
  throwsAt(() => parseToolOutput(count.text), count.line, /'Total Reads: -41674' is impossible: a count cannot be negative/);
  const group = edit(PUBSUB, "Empty Claims:      8987", "Empty Claims:      -8987");
  throwsAt(() => parseToolOutput(group.text), group.line, /'Empty Claims: +-8987' is impossible: a count cannot be negative/);
  const liveQ = edit(QUEUE, "W: 2901/s", "W: -2901/s");
  throwsAt(() => parseToolOutput(liveQ.text), liveQ.line, /'\[04:36:09\] W: -2901\/s .*' is impossible: a rate cannot be negative/);
  const liveP = edit(PUBSUB, "TotalR: 24920/s", "TotalR: -24920/s");
  throwsAt(() => parseToolOutput(liveP.text), liveP.line, /'TotalR: -24920\/s .*' is impossible: a rate cannot be negative/);
  const latency = edit(QUEUE, "P50: 1.653759ms", "P50: -1.653759ms");
  throwsAt(
    () => parseToolOutput(latency.text),
    latency.line,
    /'P50: -1\.653759ms' under 'Write Latencies \(INSERT only\):' is impossible: a latency cannot be negative/,
  );
});

test("percentiles out of order are refused with their line and the one they contradict", () => {
  const p99 = edit(QUEUE, "P99: 7.327743ms", "P99: 3ms");
  const p95Line = lineOf(QUEUE, "P95: 4.464639ms");
  throwsAt(
    () => parseToolOutput(p99.text),
    p99.line,
    new RegExp(`'P99: 3ms' under 'Write Latencies \\(INSERT only\\):' is below 'P95: 4\\.464639ms' \\(line ${p95Line}\\): percentiles cannot decrease`),
  );
  // In a consumer group's block of a pubsub output, too.
  const p95 = edit(PUBSUB, "P95: 87.293951ms", "P95: 20ms");
  throwsAt(() => parseToolOutput(p95.text), p95.line, /'P95: 20ms' under 'End-to-End Latency \(created_at → consumed\):' is below 'P50: 31\.588351ms'/);
  // Equal percentiles are fine (the pubsub base summary prints 0s for all three).
  assert.equal(parseToolOutput(PUBSUB).latencyMs.write.p50.ms, 19.202047);
});

test("a summary that contradicts its own live lines is refused (average rate beyond a factor of 1.5 of theirs)", () => {
  // 10× the rate: the queue summary prints no duration, so only the live lines (W: 3465, 2901, …) can tell.
  const tenfold = edit(QUEUE, "Avg Write Throughput: 2973.93 rows/sec", "Avg Write Throughput: 29739.30 rows/sec");
  throwsAt(
    () => parseToolOutput(tenfold.text),
    tenfold.line,
    /'Avg Write Throughput: 29739\.30 rows\/sec' contradicts the live report \(lines 1–5\), whose W rates average 3,013\.8\/s: a run's average lies within a factor of 1\.5/,
  );
  const reads = edit(QUEUE, "Avg Read Throughput: 1389.13 rows/sec", "Avg Read Throughput: 389.13 rows/sec");
  throwsAt(() => parseToolOutput(reads.text), reads.line, /contradicts the live report \(lines 1–5\), whose R rates average 1,433\.8\/s/);
  // The real outputs are well inside the tolerance (1.3% and 5.4% apart).
  for (const [text, w] of [
    [QUEUE, [3465, 2901, 2897, 2906, 2900]],
    [PUBSUB, [6960, 4980, 4999, 5020, 5000]],
  ] as const) {
    const s = parseToolOutput(text);
    const mean = w.reduce((a, b) => a + b, 0) / w.length;
    const ratio = mean / s.throughput.writeMsgPerSec;
    assert.ok(ratio > 1 && ratio < 1.06 && ratio < LIVE_RATE_FACTOR, `live mean / summary average = ${ratio}`);
  }
});

test("a live running total above the final total is refused", () => {
  // Total Writes lowered below the last TotalW:134800, with its rate lowered to match the 30 s duration.
  let t = edit(PUBSUB, "Total Writes: 153500", "Total Writes: 100000").text;
  t = edit(t, "Avg Write Throughput: 5116.67 rows/sec", "Avg Write Throughput: 3333.33 rows/sec").text;
  throwsAt(
    () => parseToolOutput(t),
    lineOf(PUBSUB, "Total Writes: 153500"),
    /'Total Writes: 100000' is below the TotalW:134800 printed live on line 40: a total cannot shrink/,
  );
});

test("a summary that contradicts itself is refused: rate ≠ total ÷ duration, aggregate ≠ the groups' sum", () => {
  // pubsub prints its duration: 153500 writes in 30 s are 5,116.67/s, not 4,116.67/s.
  const rate = edit(PUBSUB, "Avg Write Throughput: 5116.67 rows/sec", "Avg Write Throughput: 4116.67 rows/sec");
  const tw = lineOf(PUBSUB, "Total Writes: 153500");
  const du = lineOf(PUBSUB, "Duration: 30s");
  throwsAt(
    () => parseToolOutput(rate.text),
    rate.line,
    new RegExp(
      `'Avg Write Throughput: 4116\\.67 rows/sec' contradicts 'Total Writes: 153500' \\(line ${tw}\\) over 'Duration: 30s \\(30\\.0s\\)' \\(line ${du}\\): the tool prints total ÷ duration, which is 5,116\\.67`,
    ),
  );
  // queue: a command line whose --duration is not the run's.
  throwsAt(
    () => parseToolOutput(QUEUE, { command: "./pg_msg_bench --mode=queue --duration=60s" }),
    lineOf(QUEUE, "Avg Write Throughput"),
    /contradicts 'Total Writes: 89218' \(line \d+\) over the command line's --duration \(60 s\): the tool prints total ÷ duration, which is 1,486\.97/,
  );
  assert.equal(parseToolOutput(QUEUE, { command: "./pg_msg_bench --mode=queue --duration=30s" }).config.durationSeconds, 30);
  // The aggregate block is the sum of the groups.
  const agg = edit(PUBSUB, "Total Reads Completed: 767000", "Total Reads Completed: 767500");
  throwsAt(() => parseToolOutput(agg.text), agg.line, /'Total Reads Completed: 767500' is not the sum of the 5 consumer groups' 'Reads Completed' \(767,000\)/);
});
