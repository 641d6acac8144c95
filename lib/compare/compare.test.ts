// Comparison maths: config diff, deltas against a baseline, unfairness notes, exports and the URL state.
// Items are built by the real builders from the real references, a real tool output, and a run summary
// whose histograms are recorded here (a stored run's shape, without needing the runner).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { Comparable } from "./comparable";
import { buildComparison } from "./compare";
import { delta } from "./deltas";
import { toCsv } from "./export-csv";
import { toJson } from "./export-json";
import { toMarkdown } from "./export-markdown";
import { toTextTable } from "./export-text";
import { contextNotes, TOP_NOTES } from "./notes";
import { configDiff } from "./rows";
import { compareUrl, parseViewState, requestOrigin, viewQuery } from "./view-state";
import { fmtLatency } from "../runs/format";
import { distributionPoints, fromImport, fromReference, fromRun, NotComparable, relevantSettings } from "./build";
import { encodeHistogram, newHistogram, percentilesOf, recordMicros } from "../measurement/histogram";
import { parseToolOutput } from "../imports/parse";
import { TOOL_OUTPUT_DIR } from "../paths";
import { referenceById } from "../references/references";
import { RunSummary } from "../measurement/summary";
import { WorkloadConfig } from "../workloads/config";
import { verdictOf } from "../telemetry/verdict";
import { telemetryWindow } from "../telemetry/window";

const ref = (id: string) => fromReference(referenceById(id)!);
const PUBSUB_OUT = readFileSync(path.join(TOOL_OUTPUT_DIR, "pubsub-4vcpu-preset-30s.txt"), "utf8");

/** A completed run's record: latencies recorded into real HDR histograms, percentiles read from them. */
function runRecord(
  id: string,
  opts: {
    fsync?: string;
    cores?: number;
    pg?: string;
    targetLabel?: string;
    serverAddress?: string | null;
    backoff?: "reference-effective" | "nominal";
    /** The e2e latencies' floor in µs (2,000 by default: 2 … 5 ms). */
    e2eFromMicros?: number;
  } = {},
) {
  const config = WorkloadConfig.parse({
    kind: "queue",
    writers: 1,
    readers: 1,
    durationSeconds: 3,
    warmupSeconds: 1,
    ...(opts.backoff ? { backoff: opts.backoff } : {}),
  });
  const hs = { write: newHistogram(), read: newHistogram(), e2e: newHistogram() };
  for (let i = 1; i <= 1000; i++) {
    recordMicros(hs.write, 500 + i); // 0.501 … 1.5 ms
    recordMicros(hs.read, 1000 + 2 * i);
    recordMicros(hs.e2e, (opts.e2eFromMicros ?? 2000) + 3 * i);
  }
  // Stored in the old (schemaVersion 1) shape: read through the schema, which converts it.
  const summary: RunSummary = RunSummary.parse({
    schemaVersion: 1,
    workload: "queue",
    config,
    manifest: {
      postgresVersion: opts.pg ?? "18.1",
      serverSettings: { fsync: opts.fsync ?? "on", listen_addresses: "127.0.0.1", shared_buffers: "128MB", work_mem: "8MB" },
      maxConnections: 100,
      ...(opts.serverAddress !== undefined ? { serverAddress: opts.serverAddress } : {}),
      runnerHost: "box",
      runnerCores: opts.cores ?? 2,
      runnerCpuModel: "Test CPU",
      nodeVersion: "v20",
      productVersion: "0.1.0",
      productCommit: "abc",
      startedAt: "2026-01-01T00:00:00Z",
      endedAt: "2026-01-01T00:00:04Z",
      runnerCpuSeconds: 1,
      runnerCpuMsPer1000Msgs: 1,
      e2eClock: "runner monotonic clock",
      ...(opts.backoff ? { backoff: opts.backoff } : {}),
    },
    window: { measuredSeconds: 3.01, warmupSeconds: 1 },
    writes: { count: 3000, msgPerSec: 996.68, mibPerSec: 0.97, errors: 0 },
    reads: { count: 2990, msgPerSec: 993.36, mibPerSec: 0.97, errors: 0, emptyPolls: 3, perGroup: [] },
    latencyMs: { write: percentilesOf(hs.write), read: percentilesOf(hs.read), e2e: percentilesOf(hs.e2e) },
    verification: { ok: true, checked: 3000, unit: "message", problems: [], facts: [] },
    histograms: { write: encodeHistogram(hs.write), read: encodeHistogram(hs.read), e2e: encodeHistogram(hs.e2e) },
  });
  return { id, status: "completed", createdAt: new Date("2026-01-01T00:00:00Z"), targetLabel: opts.targetLabel ?? "embedded default", summary };
}

test("config diff: the two 4 vCPU pub/sub references differ in duration and runs averaged, not in clients", () => {
  const items = [ref("pubsub-4vcpu-single-node"), ref("pubsub-4vcpu-three-node-sync-replicated")];
  const differing = configDiff(items)
    .filter((r) => r.differs)
    .map((r) => r.key);
  assert.deepEqual(differing, ["durationSeconds", "runsAveraged"]);
  const cmp = buildComparison(items);
  const envDiffers = cmp.env.filter((r) => r.differs).map((r) => r.key);
  assert.ok(envDiffers.includes("topology"));
  assert.ok(envDiffers.includes("settings"));
  assert.ok(!envDiffers.includes("serverCores"));
  // Queue rows the pub/sub items do not have are left out.
  assert.ok(!cmp.config.some((r) => r.key === "tuneTableVacuum"));
});

test("deltas and ratios against a baseline, with better/worse by direction", () => {
  assert.deepEqual(delta(150, 100, "higher"), { diff: 50, ratio: 1.5, pct: 50, better: true });
  assert.deepEqual(delta(150, 100, "lower"), { diff: 50, ratio: 1.5, pct: 50, better: false });
  assert.equal(delta(null, 100), null);
  assert.equal(delta(5, 0)?.ratio, null);
  const cmp = buildComparison([ref("queue-4vcpu-single-node"), ref("queue-96vcpu-single-node")], "ref:queue-96vcpu-single-node");
  assert.equal(cmp.baseline, 1);
  const w = cmp.results.find((r) => r.key === "writePerSec")!;
  assert.deepEqual(w.values, [2885, 20144]);
  assert.equal(delta(w.values[0], w.values[1], w.better)!.ratio!.toFixed(4), (2885 / 20144).toFixed(4));
  // A reference publishes no p99.9 or max: unknown, never invented.
  assert.deepEqual(cmp.results.find((r) => r.key === "e2e.p999")!.values, [null, null]);
  // An unknown baseline falls back to the first item.
  assert.equal(buildComparison([ref("queue-4vcpu-single-node")], "r_nope").baseline, 0);
});

test("a stored run: numbers from its summary, a distribution curve from its histograms", () => {
  const c = fromRun(runRecord("r_aaa"));
  assert.equal(c.badge, "measured");
  assert.equal(c.throughput.writePerSec, 996.68);
  assert.equal(c.latency.write.p50, 1); // the 500th of 501…1500 µs
  assert.ok(c.latency.e2e.p999 !== null && c.latency.e2e.max !== null);
  const d = c.distribution.write!;
  assert.ok(d.length > 10);
  for (let i = 1; i < d.length; i++) assert.ok(d[i].q > d[i - 1].q && d[i].ms >= d[i - 1].ms, "monotone");
  assert.equal(d[d.length - 1].ms, c.latency.write.max);
  assert.equal(d.find((p) => p.q === 0.5)?.ms, c.latency.write.p50);
  assert.throws(() => fromRun({ ...runRecord("r_bbb"), status: "failed" }), NotComparable);
  assert.deepEqual(relevantSettings({ fsync: "off", shared_buffers: "128MB", lc_messages: "C", work_mem: "8MB" }), { work_mem: "8MB" });
});

test("an import: the tool's own numbers, labelled imported, with points instead of curves", () => {
  const c = fromImport({ id: "imp_x", label: "my paste", createdAt: new Date(), parsed: parseToolOutput(PUBSUB_OUT) });
  assert.equal(c.badge, "imported");
  assert.equal(c.throughput.readPerSec, 25566.67);
  assert.equal(c.throughput.readMiBPerSec, null); // payload unknown without a command line
  assert.equal(c.latency.e2e.p99, 144.441343);
  assert.equal(c.latency.e2e.p999, null);
  assert.deepEqual(
    c.points.e2e?.map((p) => p.q),
    [0.5, 0.95, 0.99],
  );
  assert.equal(c.overTime.length, 5);
  assert.equal(c.config.readBatch, 200);
  assert.equal(c.annotations.readBatch, "inferred");
  // "4 (inferred)" readers equal the reference's 4: not a difference.
  const rows = configDiff([ref("pubsub-4vcpu-single-node"), c]);
  assert.equal(rows.find((r) => r.key === "readers")!.differs, false);
  assert.deepEqual(rows.find((r) => r.key === "readers")!.annotations, [null, "inferred"]);
  assert.equal(rows.find((r) => r.key === "durationSeconds")!.differs, true);
});

test("the context panel names what makes the comparison unfair", () => {
  const items: Comparable[] = [
    ref("queue-4vcpu-single-node"),
    fromRun(runRecord("r_aaa", { fsync: "off" })),
    fromImport({ id: "imp_x", label: "p", createdAt: new Date(), parsed: parseToolOutput(PUBSUB_OUT) }),
  ];
  const notes = contextNotes(items);
  const topics = notes.map((n) => n.topic);
  for (const t of ["workload", "source", "hardware", "cores", "postgres", "durability", "length", "throttle", "warmup", "rates", "clock", "flaw", "unknown"])
    assert.ok(topics.includes(t), `missing ${t}: ${topics.join(",")}`);
  const durability = notes.find((n) => n.topic === "durability")!;
  assert.match(durability.text, /nothing \(fsync=off\)/);
  // remote_write without a standby waits for the local flush, like "on": not a durability difference.
  const single = contextNotes([ref("pubsub-4vcpu-single-node"), ref("pubsub-96vcpu-single-node")]).map((n) => n.topic);
  assert.ok(!single.includes("durability"));
  const replicated = contextNotes([ref("queue-4vcpu-single-node"), ref("queue-4vcpu-three-node-sync-replicated")]);
  assert.match(replicated.find((n) => n.topic === "durability")!.text, /local WAL flush \+ standby flush/);
  assert.ok(replicated.some((n) => n.topic === "replication"));
  assert.match(notes.find((n) => n.topic === "cores")!.text, /4.*2 \(shared with the load generator\)/);
  assert.match(notes.find((n) => n.topic === "flaw")!.text, /IMPERFECTIONS/);
  assert.match(notes.find((n) => n.topic === "postgres")!.text, /17.*18\.1/);
  // Two identical items: nothing unfair beyond what each source is.
  const same = contextNotes([ref("queue-4vcpu-single-node"), ref("queue-4vcpu-single-node")]).map((n) => n.topic);
  assert.ok(!same.includes("hardware") && !same.includes("durability") && !same.includes("length"));
});

test("Markdown export: a README-like summary table whose numbers equal the stored ones, and the deltas", () => {
  const run = fromRun(runRecord("r_aaa"));
  const cmp = buildComparison([ref("pubsub-4vcpu-single-node"), run], "ref:pubsub-4vcpu-single-node");
  const md = toMarkdown(cmp, { url: "http://x/compare?ids=ref:pubsub-4vcpu-single-node,r_aaa" });
  assert.match(
    md,
    /\| Published: pub\/sub · 4 vCPU single node \| published \| AWS c7i\.xlarge: 4 vCPU, 8 GiB, gp3 25GB 9000 IOPS \| 5,037 msg\/s \/ 4\.92 MiB\/s \| 25,183 msg\/s \/ 24\.59 MiB\/s \| 8\.76 ms \/ 10\.65 ms \/ 60\.09 ms \|/,
  );
  const l = run.latency.e2e;
  assert.ok(md.includes(`| ${fmtLatency(l.p50)} / ${fmtLatency(l.p95)} / ${fmtLatency(l.p99)} |`));
  assert.ok(md.includes("996.68 msg/s / 0.97 MiB/s"));
  // Write msg/s of the run against the baseline: 996.68 / 5037 = −80.2 %, a value 5.1 times smaller: ÷5.1.
  assert.match(md, /\| Write msg\/s \| 5,037 \| 996\.68 \(÷5\.1\) \|/);
  assert.match(md, /## What makes this comparison unfair/);
  assert.match(md, /Link: http:\/\/x\/compare/);
});

test("multi-second latencies read in seconds in the Markdown and the text table, a big change as a factor; CSV stays raw ms", () => {
  // A stalled run: e2e 16.2 s (16,200.003 … 16,203 ms) against a run of 2 … 5 ms.
  const slow = fromRun(runRecord("r_slow", { e2eFromMicros: 16_200_000 }));
  const cmp = buildComparison([fromRun(runRecord("r_fast")), slow], "r_fast");
  const md = toMarkdown(cmp);
  const summaryRow = md.split("\n").find((l) => l.startsWith("| r_slow "))!;
  const e2e = slow.latency.e2e;
  assert.ok(e2e.p50! > 16_000 && e2e.p50! < 20_000, `e2e p50 ${e2e.p50} ms`);
  assert.match(summaryRow, /\| 16\.2 s \/ 16\.2 s \/ 16\.2 s \| [\d.]+ ms \/ [\d.]+ ms \/ [\d.]+ ms \|/);
  assert.doesNotMatch(md, /\d{1,3},\d{3}\.\d+ ms|\(ms\)/, 'never "16,244.735 ms", nor a bare number under an (ms) header');
  // The results row: the value in seconds and the change against the 2 ms baseline as a factor, not "+483,000%".
  const p50Row = md.split("\n").find((l) => l.startsWith("| End-to-end p50 |"))!;
  assert.match(p50Row, /^\| End-to-end p50 \| 3\.\d+ ms \| 16\.2 s \(×[\d,]+\) \|$/);
  const text = toTextTable(cmp);
  assert.match(text, /^End-to-end p50\s+3\.\d+ ms\s+16\.2 s \(×[\d,]+\)$/m);
  assert.doesNotMatch(text, /\d{1,3},\d{3}(\.\d+)? ms|\+[\d,]{4,}(\.\d)? ?%/);
  // The machine-readable export keeps the raw milliseconds, the unit in the column's name.
  const csv = toCsv(cmp).trim().split("\n");
  const header = csv[0].split(",");
  const fields = csv[2].match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, ""));
  assert.equal(Number(fields[header.indexOf("e2e_p50_ms")]), e2e.p50);
});

/** Two runs whose e2e p50 is set to the given milliseconds (the rest as recorded). */
function withE2eP50(id: string, ms: number): Comparable {
  const c = fromRun(runRecord(id));
  return { ...c, latency: { ...c.latency, e2e: { ...c.latency.e2e, p50: ms } } };
}

test("a change beyond ±50 % reads as a factor in every view: ×2,250 for 11.4 s against 5.07 ms, ÷ for smaller; CSV keeps the raw ratio", () => {
  const views = (cmp: ReturnType<typeof buildComparison>) => {
    const md = toMarkdown(cmp)
      .split("\n")
      .find((l) => l.startsWith("| End-to-end p50 |"))!;
    const text = toTextTable(cmp)
      .split("\n")
      .find((l) => l.startsWith("End-to-end p50"))!;
    return { md, text };
  };
  // 11.4 s against a 5.07 ms baseline: ×2,250 (it read "2,249×"); the other way round ÷2,250 (it read "−100.0 %").
  const up = views(buildComparison([withE2eP50("r_fast", 5.07), withE2eP50("r_slow", 11_400)], "r_fast"));
  assert.equal(up.md, "| End-to-end p50 | 5.07 ms | 11.4 s (×2,250) |");
  assert.match(up.text, /^End-to-end p50\s+5\.07 ms\s+11\.4 s \(×2,250\)$/);
  const down = buildComparison([withE2eP50("r_fast", 5.07), withE2eP50("r_slow", 11_400)], "r_slow");
  const dv = views(down);
  assert.equal(dv.md, "| End-to-end p50 | 5.07 ms (÷2,250) | 11.4 s |");
  assert.match(dv.text, /^End-to-end p50\s+5\.07 ms \(÷2,250\)\s+11\.4 s$/);
  assert.doesNotMatch(`${toMarkdown(down)}${toTextTable(down)}`, /−100\.0 %/);
  // 3.1 times smaller: ÷3.1; within ±50 % a percentage.
  assert.match(views(buildComparison([withE2eP50("a", 31), withE2eP50("b", 10)], "a")).md, /\| 31 ms \| 10 ms \(÷3\.1\) \|$/);
  assert.match(views(buildComparison([withE2eP50("a", 10), withE2eP50("b", 14)], "a")).md, /\| 10 ms \| 14 ms \(\+40\.0 %\) \|$/);
  // JSON and CSV keep the numbers: the raw ratio, unrounded.
  const csv = toCsv(down).trim().split("\n");
  const header = csv[0].split(",");
  const fields = csv[1].match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, ""));
  assert.equal(Number(fields[header.indexOf("e2e_p50_ms_ratio_vs_baseline")]), 5.07 / 11_400);
  assert.equal(toJson(down).results.find((r) => r.key === "e2e.p50")!.deltas[0]!.ratio, 5.07 / 11_400);
});

test("the caveats come ranked, most telling first, the rest folded; a flag several items carry is said once", () => {
  const items: Comparable[] = [
    ref("queue-4vcpu-single-node"),
    ref("queue-4vcpu-three-node-sync-replicated"),
    ref("queue-96vcpu-single-node"),
    fromRun(runRecord("r_aaa", { fsync: "off" })),
    fromImport({ id: "imp_x", label: "p", createdAt: new Date(), parsed: parseToolOutput(PUBSUB_OUT) }),
  ];
  const notes = contextNotes(items);
  // Ranked: the work first, then where it ran, then the sources' flags, then settings and method.
  const ranks = notes.map((n) => n.rank);
  assert.deepEqual(
    ranks,
    [...ranks].sort((a, b) => a - b),
    notes.map((n) => `${n.rank} ${n.topic}`).join(", "),
  );
  const topics = notes.map((n) => n.topic);
  assert.equal(topics[0], "workload");
  const at = (t: string) => topics.indexOf(t);
  for (const [before, after] of [
    ["workload", "throttle"],
    ["throttle", "hardware"],
    ["hardware", "durability"],
    ["durability", "flaw"],
    ["flaw", "postgres"],
    ["postgres", "rates"],
    ["rates", "unknown"],
  ])
    assert.ok(at(before) >= 0 && at(before) < at(after), `${before} before ${after}: ${topics.join(", ")}`);
  // The queue references' author caveat: once, naming all three (it was one note per reference).
  const imperfections = notes.filter((n) => n.text.includes("IMPERFECTIONS"));
  assert.equal(imperfections.length, 1, imperfections.map((n) => n.text).join("\n"));
  assert.match(
    imperfections[0].text,
    /^Published: queue · 4 vCPU single node, Published: queue · 4 vCPU 3-node sync-replicated, Published: queue · 96 vCPU single node: its author flags/,
  );
  // The Markdown shows the first TOP_NOTES and folds the rest; the text table says how many more.
  const cmp = buildComparison(items);
  const md = toMarkdown(cmp);
  const section = md.slice(md.indexOf("## What makes this comparison unfair"));
  assert.ok(section.indexOf(`**${notes[TOP_NOTES - 1].topic}**`) < section.indexOf("<details>"));
  assert.match(section, new RegExp(`<details><summary>${notes.length - TOP_NOTES} more \\(less likely to change the reading\\)</summary>`));
  assert.equal(md.split("IMPERFECTIONS").length - 1, 1, "the flag once in the Markdown");
  const text = toTextTable(cmp);
  assert.match(text, new RegExp(`^${notes.length - TOP_NOTES} more, less likely to change the reading:$`, "m"));
  assert.equal(text.split("IMPERFECTIONS").length - 1, 1, "the flag once in the text table");
});

test("CSV and JSON exports carry the unrounded values", () => {
  const run = fromRun(runRecord("r_aaa"));
  const cmp = buildComparison([run, ref("queue-4vcpu-single-node")], "r_aaa");
  const csv = toCsv(cmp).trim().split("\n");
  assert.equal(csv.length, 3);
  const header = csv[0].split(",");
  const col = (name: string, row: number) => csv[row].match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, ""))[header.indexOf(name)];
  assert.equal(col("write_per_s", 1), "996.68");
  assert.equal(col("e2e_p99_ms", 2), "15.86");
  assert.equal(col("write_per_s_ratio_vs_baseline", 2), String(2885 / 996.68));
  assert.equal(col("baseline", 1), "true");
  const json = toJson(cmp);
  assert.equal(json.baseline, "r_aaa");
  assert.equal(json.results.find((r) => r.key === "e2e.p99")!.values[1], 15.86);
  assert.equal((json.items[0] as { overTime?: unknown }).overTime, undefined);
  const text = toTextTable(cmp);
  assert.match(text, /Write msg\/s\s+996\.68\s+2,885 \(×2\.9\)/); // +189.5 %: beyond +50 %, a factor
});

test("the URL holds the whole view, and reading it back gives the same view", () => {
  const v = parseViewState(new URLSearchParams("ids=r_abc,ref:queue-4vcpu-single-node,imp_123,bad id,r_abc&base=imp_123&diff=1&log=0&m=write&p=p50"));
  assert.deepEqual(v, { ids: ["r_abc", "ref:queue-4vcpu-single-node", "imp_123"], base: "imp_123", diff: true, log: false, metric: "write", pct: "p50" });
  assert.equal(viewQuery(v), "ids=r_abc,ref:queue-4vcpu-single-node,imp_123&base=imp_123&diff=1&log=0&m=write&p=p50");
  assert.deepEqual(parseViewState(new URLSearchParams(viewQuery(v))), v);
  // A baseline that is not selected is dropped; defaults are left out of the URL.
  const d = parseViewState({ ids: "r_a", base: "r_b" });
  assert.equal(d.base, null);
  assert.equal(viewQuery(d), "ids=r_a");
});

test("distribution points stop where the histogram runs out of samples", () => {
  const h = newHistogram();
  for (let i = 0; i < 100; i++) recordMicros(h, 1000);
  const pts = distributionPoints(h);
  assert.ok(pts.every((p) => 1 / (1 - p.q) <= 100));
  assert.equal(pts[pts.length - 1].ms, 1.0);
});

test("the Markdown export's link is the Copy link URL: same function, the browser's host, the whole view", async () => {
  const view = parseViewState(
    new URLSearchParams("ids=ref:queue-4vcpu-single-node,ref:queue-96vcpu-single-node&base=ref:queue-96vcpu-single-node&diff=1&log=0&m=write&p=p95"),
  );
  // What the page's Copy link holds (CompareView: compareUrl(window.location.origin, view)).
  const copied = compareUrl("http://127.0.0.1:3000", view);
  assert.equal(
    copied,
    "http://127.0.0.1:3000/compare?ids=ref:queue-4vcpu-single-node,ref:queue-96vcpu-single-node&base=ref:queue-96vcpu-single-node&diff=1&log=0&m=write&p=p95",
  );
  // The export is asked for with the page's query plus format and download, and sent with the browser's Host.
  // The handler's own URL may name the server differently (localhost): the browser's host is what a link needs.
  const { GET } = await import("../../app/api/compare/route");
  const exportReq = new Request(`http://localhost:3000/api/compare?${viewQuery(view)}&format=md&download=1`, { headers: { host: "127.0.0.1:3000" } });
  const md = await (await GET(exportReq)).text();
  const link = /^Link: (.*)$/m.exec(md)?.[1];
  assert.equal(link, copied);
  // Behind a proxy, the name the browser used is in X-Forwarded-Host / -Proto.
  const proxied = {
    url: "http://127.0.0.1:3000/api/compare",
    headers: new Headers({ host: "127.0.0.1:3000", "x-forwarded-host": "bench.example.org", "x-forwarded-proto": "https" }),
  };
  assert.equal(requestOrigin(proxied), "https://bench.example.org");
  assert.equal(requestOrigin({ url: "http://127.0.0.1:3203/api/compare", headers: new Headers() }), "http://127.0.0.1:3203");
});

test("hardware notes state facts: same machine is no difference, unknown is said once and never also 'differs'", () => {
  const hardwareNotes = (items: Comparable[]) => contextNotes(items).filter((n) => /hardware/i.test(n.text) || n.topic === "hardware" || n.topic === "cores");
  // The same embedded server on the same machine, launched from the app and from the CLI (two labels), and one
  // recorded with the server's address: nothing about hardware to say.
  const app = fromRun(runRecord("r_app", { targetLabel: "embedded default" }));
  const cli = fromRun(runRecord("r_cli", { targetLabel: "embedded Postgres (127.0.0.1:54900/pgbb_target)" }));
  const addr = fromRun(runRecord("r_addr", { targetLabel: "my local db", serverAddress: "127.0.0.1" }));
  const sock = fromRun(runRecord("r_sock", { targetLabel: "socket", serverAddress: null }));
  assert.deepEqual(hardwareNotes([app, cli, addr, sock]), []);
  assert.equal(cli.facts.serverDescription, app.facts.serverDescription);

  // Two remote targets whose hardware is not recorded: one note saying so, and no "differs".
  const a = fromRun(runRecord("r_a", { targetLabel: "prod-a", serverAddress: "10.0.0.5" }));
  const b = fromRun(runRecord("r_b", { targetLabel: "prod-b", serverAddress: "10.0.0.6" }));
  assert.equal(a.env.server, 'target "prod-a" (hardware not recorded)');
  assert.deepEqual(hardwareNotes([a, b]), [
    {
      topic: "unknown",
      severity: "info",
      text: "Hardware is unknown for both: r_a · queue 1w/1r, r_b · queue 1w/1r, so whether it differs cannot be said.",
      rank: 20,
    },
  ]);
  // Known beside unknown: the unknown one is named, nothing "differs" with one known machine.
  assert.deepEqual(
    hardwareNotes([app, a]).map((n) => n.text),
    ["Hardware is unknown for: r_a · queue 1w/1r."],
  );
  // Two known, different machines: differs, listing only what is known.
  const other = fromRun(runRecord("r_big", { cores: 16 }));
  const hw = hardwareNotes([app, other, a]);
  assert.deepEqual(
    hw.map((n) => n.topic),
    ["hardware", "cores", "unknown"],
  );
  assert.doesNotMatch(hw[0].text, /r_a ·/);
});

test("a back-off difference is named among what makes a comparison unfair; the reference tool's is the effective one", () => {
  const topics = (items: Comparable[]) => contextNotes(items).filter((n) => n.topic === "backoff");
  const effective = fromRun(runRecord("r_eff", { backoff: "reference-effective" }));
  const nominal = fromRun(runRecord("r_nom", { backoff: "nominal" }));
  const old = fromRun(runRecord("r_old")); // recorded before the setting: it slept the nominal back-off
  assert.equal(old.env.backoff, "nominal (recorded before the back-off was a setting)");
  const notes = topics([effective, nominal]);
  assert.equal(notes.length, 1);
  assert.equal(notes[0].severity, "warn");
  assert.match(notes[0].text, /back-off after an empty poll differs: .*r_eff.*reference-effective.*r_nom.*nominal/);
  assert.deepEqual(topics([nominal, old]), []);
  assert.deepEqual(topics([effective, ref("queue-4vcpu-single-node")]), [], "the reference tool sleeps what reference-effective reproduces");
  assert.equal(topics([old, ref("queue-4vcpu-single-node")]).length, 1);
});

test("each measured side's verdict and what its server did: in the table, the Markdown, CSV and JSON; a reference has none", () => {
  const window = telemetryWindow([
    {
      time: "2026-01-01T00:00:02Z",
      intervalSec: 1,
      run: { total: 3, active: 3, idle: 0, idleInTx: 0 },
      runWaits: { "LWLock:WALWrite": 2, CPU: 1 },
      other: { total: 0, active: 0, idle: 0, idleInTx: 0 },
      otherWaits: {},
      lockWaits: 0,
      runLockWaits: 0,
      db: {
        commitsPerSec: 997,
        rollbacksPerSec: 0,
        insertedPerSec: 997,
        updatedPerSec: 0,
        deletedPerSec: 990,
        blocksReadPerSec: 0,
        blocksHitPerSec: 0,
        deadlocks: 0,
      },
      overhead: { statements: 6, ms: 2 },
    },
  ])!;
  const judged = runRecord("r_tel");
  judged.summary.telemetry = {
    info: { serverVersionNum: 180004, monitor: true, host: { available: false, reason: "remote" }, missing: [] },
    window,
    verdict: verdictOf({ telemetry: window }),
  };
  const cmp = buildComparison([fromRun(judged), fromRun(runRecord("r_old")), ref("queue-4vcpu-single-node")]);
  const limited = cmp.env.find((r) => r.key === "limitedBy")!;
  assert.match(String(limited.values[0]), /^WAL-flush-bound: .*share of active waits on the WAL flush \(WALWrite, WalSync, WalWrite\) 67% \(≥ 30%\) ✓/);
  assert.deepEqual(limited.values.slice(1), [null, null], "a run recorded before telemetry and a reference: unknown, never invented");
  assert.match(String(cmp.env.find((r) => r.key === "serverDid")!.values[0]), /connections active 100% \(LWLock:WALWrite 67%, CPU 33%\); 997 commits\/s/);
  assert.match(toMarkdown(cmp), /\| What limited it \| WAL-flush-bound: /);
  assert.match(toCsv(cmp).split("\n")[0], /env_limitedBy,env_serverDid/);
  assert.match(JSON.stringify(toJson(cmp)), /WAL-flush-bound/);
  // The same window's numbers as result rows, side by side with their differences, never "better" or "worse".
  const commits = cmp.results.find((r) => r.key === "server_commits_per_s")!;
  assert.equal(commits.group, "What the server did");
  assert.deepEqual(commits.values, [997, null, null]);
  assert.equal(cmp.results.find((r) => r.key === "server_wal_flush_wait_pct")!.values[0]!.toFixed(1), "66.7");
  assert.equal(delta(2, 1, commits.better)!.better, null);
  assert.match(toCsv(cmp).split("\n")[0], /,server_commits_per_s,/);
  assert.match(toMarkdown(cmp), /\| Commits\/s \| 997 \|/);
  // Without any item measured by telemetry, there are no such rows.
  assert.ok(!buildComparison([fromRun(runRecord("r_old")), ref("queue-4vcpu-single-node")]).results.some((r) => r.group === "What the server did"));
});

test("Markdown export: a typed label stays text, never HTML, a link or an image", () => {
  const hostile = "<img src=x onerror=alert(1)> [click](javascript:alert(1)) `code` & a|b";
  const items = [ref("pubsub-4vcpu-single-node"), fromImport({ id: "imp_x", label: hostile, createdAt: new Date(), parsed: parseToolOutput(PUBSUB_OUT) })];
  const md = toMarkdown(buildComparison(items, "ref:pubsub-4vcpu-single-node"));
  assert.doesNotMatch(md, /(^|[^\\])<img/m, "no raw tag");
  assert.doesNotMatch(md, /[^\\]\]\(javascript:/, "no live link");
  const escaped = "\\<img src=x onerror=alert(1)\\> \\[click\\](javascript:alert(1)) \\`code\\` \\& a";
  assert.ok(md.includes(`| Imported: ${escaped}\\|b |`), `the label escaped in its table cell:\n${md}`);
  assert.ok(md.includes(`- Imported: ${escaped}|b: Imported from the reference tool's output`), "a note's label is escaped too");
  assert.ok(md.includes(`Hardware is unknown for: Imported: ${escaped}|b.`), "a caveat naming the label escapes it");
});
