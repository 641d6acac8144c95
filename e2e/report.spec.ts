// A report that travels (issue 33): a finished run's "Export HTML" downloads one file that opens in a browser with
// every request blocked and JavaScript off, and shows the run: its SVG charts with lines drawn, its verdict, its
// latency table and manifest, the same figures as the run page.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { type Browser, expect, test } from "@playwright/test";
import { RunPage } from "./pages/RunPage";
import { SAME_ORIGIN } from "./same-origin";

test.describe.configure({ mode: "serial" });

/** The run the tests share (the first makes it) and the figure its page shows. */
const shared: { id?: string; writeRate?: string } = {};

/** Opens `file` in a fresh context with JavaScript off and every other request refused; `refused` collects them. */
async function openOffline(browser: Browser, file: string) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  const refused: string[] = [];
  await page.route("**", (r) => {
    if (r.request().url() === url) return r.continue();
    refused.push(r.request().url());
    return r.abort();
  });
  await page.goto(url);
  return { context, page, refused };
}

test("a run's HTML report opens offline with scripts off and shows its charts and figures", async ({ page, browser, request }, testInfo) => {
  test.setTimeout(240_000);
  // A short throttled queue run: telemetry on (the embedded target), so the report has the server's charts too.
  const config = { kind: "queue", writers: 2, readers: 2, throttleWritesPerSec: 200, warmupSeconds: 1, durationSeconds: 5 };
  const res = await request.post("/api/runs", { headers: SAME_ORIGIN, data: { config } });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  shared.id = id;
  const run = new RunPage(page);
  await run.open(id);
  await run.waitForStatus("completed", 200_000);
  // The figures the page shows, to find again in the file.
  const writeRate = (await page.getByTestId("kpi-write").textContent())!.trim();
  const latencyRows = await page.getByTestId("latency-table").locator("tbody tr").allInnerTexts();
  const category = (await page.getByTestId("verdict-category").textContent())!.trim();
  expect(writeRate).toMatch(/\d/);
  shared.writeRate = writeRate;

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-html").click()]);
  expect(download.suggestedFilename()).toBe(`pgbb-${id}-report.html`);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  const html = readFileSync(file, "utf8");
  expect(html).not.toMatch(/<script/i);

  // A fresh context with JavaScript off; every request but the file itself is refused and counted.
  const { context: offline, page: report, refused } = await openOffline(browser, file);
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

test("a comparison's HTML report opens offline with its tables and bars", async ({ page, browser }, testInfo) => {
  expect(shared.id, "the first test's run").toBeTruthy();
  await page.goto(`/compare?ids=${shared.id},ref:queue-4vcpu-single-node`);
  await expect(page.getByTestId("results-table")).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-html").click()]);
  const file = testInfo.outputPath("comparison.html");
  await download.saveAs(file);
  const { context, page: report, refused } = await openOffline(browser, file);
  await expect(report.getByTestId("compare-report")).toHaveAttribute("data-keys", `${shared.id},ref:queue-4vcpu-single-node`);
  await expect(report.getByTestId("results-table")).toContainText("2,885");
  const bars = report.getByTestId("report-chart-throughput-bars").locator("svg");
  await expect(bars).toBeVisible();
  await expect(bars.locator("g.bar")).toHaveCount(4); // write and read of the run and of the published result
  await expect(report.getByTestId("report-chart-latency-bars-e2e").locator("svg")).toBeVisible();
  await report.screenshot({ path: testInfo.outputPath("comparison-offline.png"), fullPage: true });
  expect(refused).toEqual([]);
  await context.close();
});

test("a run's bundle, imported from the runs page: listed as imported and opens with the same figures", async ({ page }, testInfo) => {
  expect(shared.id, "the first test's run").toBeTruthy();
  const run = new RunPage(page);
  await run.open(shared.id!);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-bundle").click()]);
  expect(download.suggestedFilename()).toBe(`pgbb-${shared.id}-bundle.json`);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  await page.goto("/runs");
  await page.getByTestId("import-bundle").locator("summary").click();
  await page.getByTestId("bundle-file").setInputFiles(file);
  // The same instance holds the run already: it is stored under a new id, and the answer says so.
  const result = page.getByTestId("bundle-result");
  await expect(result).toContainText(new RegExp(`run ${shared.id} is stored as (r_[0-9a-f]{12}): this store already held a run ${shared.id}`));
  const newId = (await result.textContent())!.match(/is stored as (r_[0-9a-f]{12})/)![1];
  const row = page.locator(`tr[data-run-id="${newId}"]`);
  await expect(row.getByTestId("imported-badge")).toHaveText("imported");
  await row.getByRole("link", { name: newId }).click();
  await expect(page.getByTestId("run-page")).toHaveAttribute("data-run-id", newId);
  await expect(page.getByTestId("kpi-write")).toHaveText(shared.writeRate!);
  await expect(page.getByTestId("run-page")).toContainText("from import");
  // A file that is not a bundle is refused, naming why.
  await page.goto("/runs");
  await page.getByTestId("import-bundle").locator("summary").click();
  await page.getByTestId("bundle-file").setInputFiles({ name: "x.json", mimeType: "application/json", buffer: Buffer.from('{"format":"k6"}') });
  await expect(page.getByTestId("bundle-result")).toContainText('not a pg-broker-bench bundle: its "format" is "k6"');
});

test("an A/B set's and a ceiling search's HTML reports open offline with their figures and curves", async ({ page, browser, request }, testInfo) => {
  test.setTimeout(300_000);
  // One pair of the cache workload's variants, a second each; and a ceiling search of two low rates any machine holds.
  const ab = await request.post("/api/runs/ab", {
    headers: SAME_ORIGIN,
    data: { config: { kind: "cache", vus: 2, thinkMs: 2, keys: 100, durationSeconds: 1, warmupSeconds: 0 }, pairs: 1 },
  });
  expect(ab.status(), await ab.text()).toBe(201);
  const { url: abUrl } = (await ab.json()) as { url: string };
  const search = await request.post("/api/ceilings", {
    headers: SAME_ORIGIN,
    data: {
      config: { kind: "queue", writers: 1, readers: 1, warmupSeconds: 1 },
      settings: { slo: "p90<1s", stepSeconds: 3, confirmSeconds: 3, startRate: 10, maxRate: 20 },
    },
  });
  expect(search.status(), await search.text()).toBe(201);
  const { id: searchId } = (await search.json()) as { id: string };

  await page.goto(abUrl);
  await expect(page.getByTestId("export-html")).toBeVisible({ timeout: 200_000 });
  const [abDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-html").click()]);
  const abFile = testInfo.outputPath("ab.html");
  await abDownload.saveAs(abFile);
  // The page's figures, to find in the file: each measure's pooled baseline and modded.
  const rows = await page.getByTestId("ab-table").locator("tbody tr").allInnerTexts();
  expect(rows.length).toBeGreaterThan(1);
  const abOffline = await openOffline(browser, abFile);
  await expect(abOffline.page.getByTestId("ab-report")).toBeVisible();
  expect(await abOffline.page.getByTestId("ab-table").locator("tbody tr").allInnerTexts()).toEqual(rows);
  await expect(abOffline.page.getByTestId("export-html")).toHaveCount(0);
  expect(abOffline.refused).toEqual([]);
  await abOffline.context.close();

  await page.goto(`/ceilings/${searchId}`);
  await expect(page.getByTestId("export-html")).toBeVisible({ timeout: 200_000 });
  const status = (await page.getByTestId("ceiling-status").textContent())!.trim();
  const [cDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-html").click()]);
  expect(cDownload.suggestedFilename()).toBe(`pgbb-${searchId}-report.html`);
  const cFile = testInfo.outputPath("ceiling.html");
  await cDownload.saveAs(cFile);
  const cOffline = await openOffline(browser, cFile);
  await expect(cOffline.page.getByTestId("ceiling-report")).toHaveAttribute("data-ceiling-id", searchId);
  await expect(cOffline.page.getByTestId("ceiling-status")).toHaveText(status);
  const curve = cOffline.page.getByTestId("report-chart-ceiling-rate").locator("svg");
  await expect(curve).toBeVisible();
  await expect(curve.locator("circle.dot-point")).toHaveCount(await page.getByTestId("ceiling-steps").locator("tbody tr").count());
  await cOffline.page.screenshot({ path: testInfo.outputPath("ceiling-offline.png"), fullPage: true });
  expect(cOffline.refused).toEqual([]);
  await cOffline.context.close();
});
