// Live and final agree (issue 33; k6 #5588 saw a live chart climb while the real rate was flat, and an exporter's p95
// three times lower than the CLI's). A queue whose readers pause mid-run (its read rate falls to nothing, then
// catches up in a burst, so the rate changes twice): every second its live chart showed is the same second of its
// finished chart and of its CSV, the CSV's seconds of the measured window add up to the summary's counts, and the
// page and the HTML report print the summary's own figures.
import { expect, type Locator, test } from "@playwright/test";
import { fmtLatency } from "../lib/runs/numbers";
import { RunPage } from "./pages/RunPage";
import { SAME_ORIGIN } from "./same-origin";

/** The rows of a chart's table, opened, as their cells' texts. */
async function tableRows(card: Locator): Promise<string[][]> {
  const details = card.locator("details.chart-data");
  if (!(await details.evaluate((d: HTMLDetailsElement) => d.open))) await card.getByText("Show data as table").click();
  const table = card.getByTestId("chart-data");
  await expect(table).toBeVisible();
  return table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? "")));
}

/** A CSV's rows by column name (the samples CSV has no quoted commas in the columns read here). */
function csvRows(text: string): Record<string, string>[] {
  const [head, ...lines] = text.trim().split("\n");
  const names = head.split(",");
  return lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [names[i], v])));
}

const number = (text: string) => Number(text.replace(/,/g, ""));

test("a run whose read rate changes mid-run: live chart, finished chart, CSV, summary and report give the same figures", async ({ page, request }) => {
  // 16 s measured: the live read below needs the run still going after its 8th second, which a page slowed by a busy
  // machine (Playwright beside the node tests) missed in a clean-clone CI run when the run ended at 11 s.
  const config = { kind: "queue", writers: 1, readers: 1, throttleWritesPerSec: 200, warmupSeconds: 1, durationSeconds: 16, phases: "pause-workers@4s+3s" };
  const res = await request.post("/api/runs", { headers: SAME_ORIGIN, data: { config } });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = await res.json();

  const run = new RunPage(page);
  await run.open(id);
  const card = page.getByTestId("chart-throughput");
  // Live: read the table once it holds a second after the pause (t ≥ 8 s), while the run is still going.
  let live: string[][] = [];
  await expect
    .poll(
      async () => {
        live = await tableRows(card);
        return live.filter((r) => number(r[0]) >= 8).length;
      },
      { timeout: 90_000, intervals: [500], message: "the live chart reaches the seconds after the pause" },
    )
    .toBeGreaterThan(0);
  expect(await page.getByTestId("run-page").getAttribute("data-status"), "read while the run was live").toBe("running");
  // The pause shows: some seconds read nothing while writes went on, and a later one reads more than was written.
  const col = (rows: string[][], i: number) => rows.map((r) => (r[i] === "–" ? Number.NaN : number(r[i])));
  expect(col(live, 4).some((v) => v === 0)).toBe(true);

  await run.waitForStatus("completed", 90_000);
  await page.reload();
  const final = await tableRows(page.getByTestId("chart-throughput"));
  // Every second seen live is the same second, to the digit, on the finished page.
  const finalByT = new Map(final.map((r) => [r[0], r]));
  for (const row of live) expect(finalByT.get(row[0]), `t = ${row[0]} s`).toEqual(row);
  // After the pause the readers caught up: some second read more than any second wrote.
  const most = (xs: number[]) => Math.max(...xs.filter(Number.isFinite));
  expect(most(col(final, 4))).toBeGreaterThan(most(col(final, 3)));

  // The CSV: the same seconds and rates as the chart (the chart rounds as it prints).
  const csv = csvRows(await (await request.get(`/api/runs/${id}/samples.csv`)).text());
  for (const row of final) {
    const c = csv.find((x) => Number(x.elapsed_s).toFixed(1) === number(row[0]).toFixed(1) || x.elapsed_s === row[0]);
    expect(c, `the CSV has t = ${row[0]} s`).toBeTruthy();
    if (row[3] === "–") continue;
    for (const [i, column] of [
      [3, "write_msg_s"],
      [4, "read_msg_s"],
    ] as const)
      expect(Math.abs(number(row[i]) - Number(c![column])), `${column} at t = ${row[0]}`).toBeLessThanOrEqual(0.05 * Math.max(1, Number(c![column])));
  }

  // The summary: the measured window's counts are the sum of its seconds in the CSV.
  const summary = await (await request.get(`/api/runs/${id}/summary`)).json();
  const measured = csv.filter((x) => x.phase === "measuring");
  const sum = (column: string) => measured.reduce((a, x) => a + Number(x[column] || 0), 0);
  expect(sum("write_count")).toBe(summary.operations.write.count);
  expect(sum("read_count")).toBe(summary.operations.read.count);

  // The page prints the summary's end-to-end p99, and the report the same.
  const p99 = summary.operations.e2e.latency.fromSend.p99 as number;
  const headline = (await page.getByTestId("run-result").textContent()) ?? "";
  const report = await (await request.get(`/api/runs/${id}/report.html`)).text();
  // As the page writes a latency (the readers' pause holds messages for seconds: "3.02 s").
  const shown = fmtLatency(p99);
  expect(headline).toContain(shown);
  expect(report).toContain(shown);
});
