// A run's histograms exported in HdrHistogram's own formats and read back by HdrHistogram's own reader
// (hdr-histogram-js HistogramLogReader): the same count and the same percentiles as the summary shows, and a `.hgrm`
// whose percentile lines are the histogram's, in ms.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { HistogramLogReader } from "hdr-histogram-js";
import { PROJECT_ROOT } from "../paths";
import { hgrmOf, histogramsOf, hlogOf, parseHistogramFile } from "./hdr-export";
import { percentilesOf } from "./histogram";
import { RunSummary } from "./summary";

const summary = RunSummary.parse(JSON.parse(readFileSync(path.join(PROJECT_ROOT, "fixtures", "client-bound-run.json"), "utf8")).run.summary);

test("every histogram of the run, named <operation>.<kind>", () => {
  const names = histogramsOf(summary).map((h) => h.name);
  assert.ok(names.includes("e2e.fromSend") && names.includes("e2e.fromSchedule") && names.includes("write.writerLag"), names.join(", "));
  assert.deepEqual(parseHistogramFile("e2e.fromSchedule.hlog"), { operation: "e2e", kind: "fromSchedule", format: "hlog" });
  assert.equal(parseHistogramFile("e2e.p99.hlog"), null);
  assert.equal(parseHistogramFile("../e2e.fromSend.hgrm"), null);
});

test("the .hlog reads back, by HdrHistogram's log reader, as the histogram the summary's percentiles are read from", () => {
  for (const ref of histogramsOf(summary)) {
    const log = hlogOf(summary, ref);
    assert.match(log, /^#\[Histogram log format version 1\.3\]$/m);
    assert.match(log, /^#\[StartTime: [\d.]+ \(seconds since epoch\)/m);
    const reader = new HistogramLogReader(log);
    const h = reader.nextIntervalHistogram();
    assert.ok(h, `${ref.name}: an interval`);
    assert.equal(h.tag, ref.name);
    assert.equal(reader.nextIntervalHistogram(), null, "one interval: the measured window");
    const stats = percentilesOf(h);
    const shown = summary.operations[ref.operation].latency[ref.kind];
    assert.deepEqual(stats, shown, `${ref.name}: the same percentiles, mean and count as the summary`);
    // And any percentile beyond the summary's columns.
    assert.ok(h.getValueAtPercentile(99.99) >= h.getValueAtPercentile(99.9));
  }
});

test("the .hgrm is HdrHistogram's percentile distribution, in ms, ending with the count and the max", () => {
  const e2e = summary.operations.e2e.latency.fromSend!;
  const text = hgrmOf(summary.histograms.e2e.fromSend!);
  assert.match(text, /^\s+Value\s+Percentile\s+TotalCount\s+1\/\(1-Percentile\)/);
  const total = /#\[Max\s*=\s*([\d.]+), Total count\s*=\s*(\d+)\]/.exec(text);
  assert.ok(total, text.slice(-300));
  assert.equal(Number(total[2]), e2e.count);
  assert.ok(Math.abs(Number(total[1]) - e2e.max) <= e2e.max * 0.001 + 0.001, `max ${total[1]} ms against ${e2e.max} ms`);
  // The line at the 50th percentile holds the summary's p50 (ms, three decimals).
  const p50 = text.split("\n").find((l) => / 0\.500000000000 /.test(l));
  assert.ok(p50, "a line at the 50th percentile");
  assert.ok(Math.abs(Number(p50.trim().split(/\s+/)[0]) - e2e.p50) < 0.001, `${p50} against ${e2e.p50}`);
});
