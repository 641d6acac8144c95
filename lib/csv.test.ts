// The one CSV writer and the one latency formatter: what a spreadsheet reads back, and what a page shows.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fmtMs as compareMs } from "./compare/format";
import { csvCell, toCsvText } from "./csv";
import { fmtMs } from "./runs/format";

test("CSV fields are quoted as RFC 4180 asks: comma, quote, CR and LF", () => {
  assert.equal(csvCell("plain"), "plain");
  assert.equal(csvCell("a,b"), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell("line\nbreak"), '"line\nbreak"');
  assert.equal(csvCell("carriage\rreturn"), '"carriage\rreturn"', "CR alone is quoted too (the comparison export did not)");
  assert.equal(csvCell(null), "");
  assert.equal(csvCell(undefined), "");
  assert.equal(csvCell(Number.NaN), "");
  assert.equal(csvCell(Infinity), "");
  assert.equal(csvCell(0.1234567), "0.1234567", "numbers unrounded: the caller decides");
  assert.equal(csvCell(false), "false");
  assert.equal(
    toCsvText([
      ["a", "b"],
      [1, "x,y"],
    ]),
    'a,b\n1,"x,y"\n',
  );
});

test("latencies: to the microsecond everywhere, the missing mark chosen by the page", () => {
  const cases: [number, string][] = [
    [0.41234, "0.412"],
    [3.1849, "3.185"],
    [27.5, "27.5"],
    [10.65, "10.65"],
    [100, "100"],
    [999.9996, "1,000"],
    [1204.4, "1,204.4"],
    [0.001, "0.001"],
    [2, "2"],
  ];
  for (const [v, s] of cases) {
    assert.equal(fmtMs(v), s, String(v));
    assert.equal(compareMs(v), s, `the comparison shows ${v} the same way`);
  }
  assert.equal(fmtMs(null), "–");
  assert.equal(fmtMs(Number.NaN), "–");
  assert.equal(compareMs(null), "—", "a figure a source does not publish");
});
