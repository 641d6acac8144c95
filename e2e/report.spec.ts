// A report that travels (issue 33): a finished run's "Export HTML" downloads one file that opens in a browser with
// every request blocked and JavaScript off, and shows the run: its SVG charts with lines drawn, its verdict, its
// latency table and manifest, the same figures as the run page.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { RunPage } from "./pages/RunPage";
import { SAME_ORIGIN } from "./same-origin";

test("a run's HTML report opens offline with scripts off and shows its charts and figures", async ({ page, browser, request }, testInfo) => {
  test.setTimeout(240_000);
  // A short throttled queue run: telemetry on (the embedded target), so the report has the server's charts too.
  const config = { kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 200, warmupSeconds: 1, durationSeconds: 5 };
  const res = await request.post("/api/runs", { headers: SAME_ORIGIN, data: { config } });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  const run = new RunPage(page);
  await run.open(id);
  await run.waitForStatus("completed", 200_000);
  // The figures the page shows, to find again in the file.
  const writeRate = (await page.getByTestId("kpi-write").textContent())!.trim();
  const latencyRows = await page.getByTestId("latency-table").locator("tbody tr").allInnerTexts();
  const category = (await page.getByTestId("verdict-category").textContent())!.trim();
  expect(writeRate).toMatch(/\d/);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-html").click()]);
  expect(download.suggestedFilename()).toBe(`pgbb-${id}-report.html`);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  const html = readFileSync(file, "utf8");
  expect(html).not.toMatch(/<script/i);

  // A fresh context with JavaScript off; every request but the file itself is refused and counted.
  const offline = await browser.newContext({ javaScriptEnabled: false });
  const report = await offline.newPage();
  const url = pathToFileURL(file).href;
  const refused: string[] = [];
  await report.route("**", (r) => {
    if (r.request().url() === url) return r.continue();
    refused.push(r.request().url());
    return r.abort();
  });
  await report.goto(url);
  await expect(report.getByTestId("run-report")).toHaveAttribute("data-run-id", id);
  // Its charts: inline SVG, each with its lines drawn (a path with points), axes labelled in seconds.
  const throughput = report.getByTestId("report-chart-throughput");
  await expect(throughput.locator("svg")).toBeVisible();
  await expect(throughput.locator("svg")).toHaveAttribute("data-series", "write|read");
  expect(Number(await throughput.locator("path[data-points]").first().getAttribute("data-points"))).toBeGreaterThan(2);
  await expect(
    throughput
      .locator("svg text")
      .filter({ hasText: /^\d+s$/ })
      .first(),
  ).toBeVisible();
  await expect(throughput.locator("svg")).toContainText("warm-up");
  for (const c of ["latency-e2e", "waits", "wal", "commits", "cpu"]) await expect(report.getByTestId(`report-chart-${c}`).locator("svg")).toBeVisible();
  // Its figures: the page's own.
  await expect(report.getByTestId("kpi-write")).toHaveText(writeRate);
  expect(await report.getByTestId("latency-table").locator("tbody tr").allInnerTexts()).toEqual(latencyRows);
  await expect(report.getByTestId("verdict-category")).toHaveText(category);
  await expect(report.getByTestId("manifest")).toContainText("Postgres");
  await expect(report.getByTestId("report-command")).toContainText("npm run bench -- queue");
  await report.screenshot({ path: testInfo.outputPath("report-offline.png"), fullPage: true });
  expect(refused, "the report asked for nothing").toEqual([]);
  await offline.close();
});
