// The synchronous commit ladder in the browser: from the New run form, two levels × two repeats of a small queue run
// are queued in the balanced order, the ladder's page follows them to the end, then shows a row per level with its
// figures, the charts, "No standbys" on the default target, and the 2016 ladder labelled with its version and caveats.
import { expect, test } from "@playwright/test";
import { NewRunPage } from "./pages/NewRunPage";

test("a ladder of off and on, 2 repeats, runs in balanced order and shows each level beside the 2016 ladder", async ({ page }) => {
  test.setTimeout(240_000);
  const form = new NewRunPage(page);
  await form.open("?preset=queue-defaults");
  // Small and short: the runner runs the four one after the other in a few seconds each.
  await form.fill({ Writers: 1, Readers: 1, "Write limit": 100, "Warm-up": 0, "Measured duration": 2 });
  const ladder = page.getByTestId("sync-commit-ladder");
  await expect(ladder.getByRole("heading", { name: "Synchronous commit ladder" })).toBeVisible();
  for (const level of ["local", "remote_write", "remote_apply"]) await ladder.getByRole("checkbox", { name: level, exact: true }).uncheck();
  const repeats = ladder.getByRole("spinbutton", { name: "Repeats" });
  await expect(repeats).toHaveValue("3");
  await repeats.fill("11");
  await expect(repeats).toHaveAccessibleDescription("a whole number from 1 to 10");
  await expect(ladder.getByRole("button", { name: "Launch ladder" })).toBeDisabled();
  await repeats.fill("2");
  await expect(repeats).toHaveAccessibleDescription(/^4 runs, each loading the target up to /);
  await ladder.getByRole("button", { name: "Launch ladder" }).click();

  await expect(page).toHaveURL(/\/runs\/ladder\?group=sc_[0-9a-f]{12}$/);
  await expect(page.getByRole("heading", { name: "Synchronous commit ladder: queue" })).toBeVisible();
  await expect(page.getByTestId("ladder-order")).toContainText("in the balanced order off → on, then on → off");
  const rows = page.getByTestId("ladder-runs").locator("tbody tr");
  await expect(rows).toHaveCount(4);
  expect(await rows.locator("th").allTextContents()).toEqual(["off", "on", "on", "off"]);

  // Every run completes; then a row per level over its 2 repeats, each latency with its interval.
  await expect(page.getByTestId("ladder-table")).toBeVisible({ timeout: 200_000 });
  for (const i of [0, 1, 2, 3]) await expect(page.getByTestId(`ladder-status-${i}`)).toHaveText("completed");
  const head = await page.getByTestId("ladder-table").locator("thead th").allTextContents();
  expect(head.slice(0, 7)).toEqual(["level", "runs", "write p50", "write p99", "end-to-end p50", "end-to-end p99", "msg/s"]);
  for (const level of ["off", "on"]) {
    const row = page.getByTestId(`ladder-row-${level}`);
    await expect(row.locator("th")).toHaveText(level);
    await expect(row.locator("td").nth(0)).toHaveText("2");
    await expect(row.locator("td").nth(1)).toHaveText(/^[\d.]+ m?s \[[\d.]+–[\d.,]+\]$/);
  }
  await expect(page.getByTestId("ladder-row-on")).toContainText("3,329 TPS (on, synchronous replica)");
  await expect(page.getByTestId("ladder-standbys")).toContainText(
    "No standbys: the target had none, so remote_write, on and remote_apply waited for the local WAL flush only",
  );

  // The charts, and the 2016 ladder labelled with its version and what keeps it from comparing.
  await expect(page.getByRole("application", { name: "Latency at each level" })).toBeVisible();
  await expect(page.getByRole("application", { name: "Throughput relative to off" })).toBeVisible();
  await expect(page.getByTestId("chart-ladder-throughput")).toContainText("2016: pgbench on PostgreSQL 9.6 (Cybertec, 2016)");
  const reference = page.getByTestId("ladder-reference");
  await expect(reference.getByRole("heading")).toHaveText("The 2016 ladder: pgbench on PostgreSQL 9.6 (Cybertec, 2016)");
  await expect(page.getByTestId("ladder-reference-caveats")).toContainText("transactions per second only: no latencies were published");
  await expect(page.getByTestId("ladder-reference-caveats")).toContainText("hardware not stated");

  // Each is an ordinary run of the same config at its level, run in that order.
  const ids = await rows.locator("td a").allTextContents();
  const runs = await Promise.all(
    ids.map(async (id) => (await (await page.request.get(`/api/runs/${id}`)).json()) as { config: Record<string, unknown>; startedAt: string }),
  );
  expect(runs.map((r) => r.config.synchronousCommit)).toEqual(["off", "on", "on", "off"]);
  for (const r of runs) expect({ ...r.config, synchronousCommit: "x" }).toEqual({ ...runs[0].config, synchronousCommit: "x" });
  const started = runs.map((r) => Date.parse(r.startedAt));
  expect([...started].sort((a, b) => a - b)).toEqual(started);
  // A run's page names its level.
  await page.goto(`/runs/${ids[1]}`);
  await expect(page.getByText("synchronous_commit on").first()).toBeVisible();
});
