// What the server was doing: a real throttled queue run launched from the form shows the telemetry charts and the
// verdict live, and finished: charts on the run's time axis, the verdict with its evidence as numbers.
import { expect, test } from "@playwright/test";
import { NewRunPage } from "./pages/NewRunPage";
import { RunPage } from "./pages/RunPage";

test("a throttled queue run: telemetry charts live and finished, the verdict rate-bound with its numbers", async ({ page }, testInfo) => {
  const form = new NewRunPage(page);
  await form.open();
  await form.chooseWorkload("queue");
  // A low throttle the 2-core machine meets with room to spare: the verdict must be rate-bound.
  // 25 s measured: the live verdict (after 5 measured seconds) must be seen while the run still runs, on a busy machine too.
  await form.fill({ Writers: 2, Readers: 2, "Write limit": 100, "Warm-up": 1, "Measured duration": 25 });
  const id = await form.launch();
  const run = new RunPage(page);
  await run.waitForSamples(3);

  const charts = page.getByTestId("telemetry-charts");
  await expect(charts).toBeVisible();
  for (const c of ["chart-waits", "chart-wal", "chart-commits", "chart-dead-tuples", "chart-cpu"]) await expect(charts.getByTestId(c)).toBeVisible();
  // The charts draw lines as data arrives (the embedded target is on this machine, so CPU has Postgres' line).
  await expect(charts.getByTestId("chart-commits").locator("path.recharts-curve").first()).toBeVisible();
  await expect(charts.getByTestId("chart-cpu")).toContainText("Postgres");
  // Its own cost, measured, beside the charts.
  await expect(charts.getByTestId("telemetry-cost")).toContainText(/its cost: [\d.]+ statements\/s on the target in one round trip, [\d.]+ ms per reading/);
  // Live, once 5 measured seconds of telemetry are in: the verdict over the last seconds, while it still runs.
  const liveVerdict = page.getByTestId("verdict");
  await expect(liveVerdict).toContainText(/live, over the last \d+ s of the measured window/, { timeout: 20_000 });
  await expect(run.status()).toHaveText(/running/);
  await expect(liveVerdict.getByTestId("verdict-category")).toHaveText("rate-bound");
  // It changes only on sustained evidence, and says since when it holds.
  await expect(liveVerdict).toContainText(/unchanged since \d+ s into it \(it changes once another limit holds 3 s in a row\)/);

  await run.waitForStatus("completed", 90_000);
  const verdict = page.getByTestId("verdict");
  await expect(verdict.getByTestId("verdict-category")).toHaveText("rate-bound");
  await expect(verdict.getByTestId("verdict-statement")).toContainText(
    /the writers reached [\d.,]+ of the 100 msg\/s asked, and the run's connections were on the server only \d+% of the time/,
  );
  // Evidence as numbers against their thresholds, not only a label.
  const evidence = verdict.getByTestId("verdict-evidence");
  await expect(evidence).toContainText(/writes achieved \/ rate asked \d+% \(≥ 95%\) ✓/);
  await expect(evidence).toContainText(/share of time the run's connections were active on the server \d+% \(< 50%\) ✓/);
  await verdict.getByText("Every rule and its numbers").click();
  await expect(verdict.getByRole("rowheader", { name: "WAL-flush-bound" })).toBeVisible();

  // The finished charts share the run's time axis: the data table starts at the run's first seconds.
  const waits = charts.getByTestId("chart-waits");
  await waits.getByText("Show data as table").click();
  await expect(waits.getByTestId("chart-data").locator("tbody tr").first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("telemetry-finished.png"), fullPage: true });

  // Exports carry it: samples.csv has the telemetry columns, the summary JSON the verdict.
  const csv = await (await page.request.get(`/api/runs/${id}/samples.csv`)).text();
  expect(csv.split("\n")[0]).toContain("pg_commits_s");
  const summary = await (await page.request.get(`/api/runs/${id}/summary`)).json();
  expect(summary.telemetry.verdict.category).toBe("rate-bound");
  expect(summary.telemetry.window.db.commitsPerSec).toBeGreaterThan(0);

  // Compare shows each measured side's verdict and what its server did; the reference beside it has none.
  await page.goto(`/compare?ids=${id},ref:queue-4vcpu-single-node`);
  const toggle = page.getByTestId("diff-toggle");
  if (await toggle.isChecked()) await toggle.uncheck();
  const limited = page.locator('tr[data-row="limitedBy"]');
  await expect(limited.locator("td").first()).toContainText(/^rate-bound: writes achieved \/ rate asked \d+% \(≥ 95%\) ✓/);
  await expect(limited.locator("td").nth(1)).toHaveText("—");
  await expect(page.locator('tr[data-row="serverDid"] td').first()).toContainText(/connections active \d+%.*commits\/s/);
  // …and its numbers as result rows, side by side (the reference has none).
  const commits = page.getByTestId(`result-server_commits_per_s-${id}`);
  await expect(commits).toBeVisible();
  expect(Number(await commits.getAttribute("data-value"))).toBeGreaterThan(0);
  await expect(page.getByTestId("result-server_commits_per_s-ref:queue-4vcpu-single-node")).toHaveText("—");
});
