// "Run baseline and modded" on the New run page: a short cache run of each variant, queued back to back, then
// the page that follows both and shows their comparison (baseline first, the article's four deltas), from which
// the full comparison opens with the baseline run as its baseline. The published preset's shape brings the
// published pair beside our deltas.
import { expect, test } from "@playwright/test";
import { NewRunPage } from "./pages/NewRunPage";

test.describe.configure({ mode: "serial" });

/** Short and small on 2 cores: 4 VUs, 300 keys, a pool of 2, no warm-up, 2 s measured. */
const SHORT = { "Virtual users": 4, "Think time": 5, Keys: 300, "Connection pool": 2, "Warm-up": 0, "Measured duration": 2 };

test("cache: baseline and modded run back to back and land on their comparison with both runs", async ({ page }) => {
  const form = new NewRunPage(page);
  await form.open();
  await page.getByRole("radiogroup", { name: "Workload" }).getByText("cache", { exact: true }).click();
  await form.fill(SHORT);
  await page.getByRole("button", { name: "Run baseline and modded" }).click();

  await expect(page).toHaveURL(/\/runs\/ab\?baseline=r_[0-9a-f]+&modded=r_[0-9a-f]+$/);
  const url = new URL(page.url());
  const baseline = url.searchParams.get("baseline")!;
  const modded = url.searchParams.get("modded")!;
  await expect(page.getByRole("heading", { name: "Baseline and modded: cache (closed loop)" })).toBeVisible();
  await expect(page.getByTestId("ab-run-baseline")).toContainText(baseline);
  await expect(page.getByTestId("ab-run-modded")).toContainText(modded);

  // Both complete, one after the other; then the comparison: baseline first, four rows, measured deltas.
  await expect(page.getByTestId("ab-table")).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId("ab-status-baseline")).toHaveText("completed");
  await expect(page.getByTestId("ab-status-modded")).toHaveText("completed");
  const headers = await page.getByTestId("ab-table").locator("thead th").allTextContents();
  expect(headers.slice(0, 4)).toEqual(["all requests", "baseline", "modded", "delta"]);
  // A change up to +100 % as a percentage, beyond it as a factor ("2.3× the p95").
  for (const key of ["p50", "p95", "avg", "rate"]) await expect(page.getByTestId(`ab-delta-${key}`)).toHaveText(/^([+−±]\d+\.\d %|[\d,.]+× the \S+)$/);
  await expect(page.getByTestId("ab-published")).toContainText("No published pair has this config's shape");

  // Each is an ordinary run with the same load, only the variant differs.
  const runs = await Promise.all(
    [baseline, modded].map(async (id) => (await (await page.request.get(`/api/runs/${id}`)).json()) as { config: Record<string, unknown>; status: string }),
  );
  expect(runs.map((r) => r.config.variant)).toEqual(["baseline", "modded"]);
  expect({ ...runs[0].config, variant: "x" }).toEqual({ ...runs[1].config, variant: "x" });
  expect(runs[0].config).toMatchObject({ vus: 4, thinkMs: 5, keys: 300, pool: 2, load: "vus", durationSeconds: 2 });

  // The full comparison: both runs, the baseline run as its baseline.
  await page.getByTestId("ab-compare-link").click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?ids=${baseline},${modded}&base=${baseline}$`));
  const chips = page.getByTestId("selected-items").locator(".chip");
  await expect(chips).toHaveCount(2);
  await expect(chips.nth(0)).toHaveAttribute("data-key", baseline);
  await expect(chips.nth(1)).toHaveAttribute("data-key", modded);
});

test("the published preset's shape brings the published pair beside our deltas", async ({ page }) => {
  const form = new NewRunPage(page);
  await form.open();
  await form.choosePreset("cache: 200 VUs, baseline (logged table) (published)");
  // The article's load (200 VUs, think time derived from the published figures), in a short window.
  await form.fill({ "Warm-up": 0, "Measured duration": 2 });
  await page.getByRole("button", { name: "Run baseline and modded" }).click();
  await expect(page).toHaveURL(/\/runs\/ab\?/);
  await expect(page.getByTestId("ab-table")).toBeVisible({ timeout: 90_000 });
  const headers = await page.getByTestId("ab-table").locator("thead th").allTextContents();
  expect(headers).toEqual(["all requests", "baseline", "modded", "delta", "published baseline", "published modded", "published delta"]);
  // The article's figures and their deltas (our arithmetic): p50 1.87 → 1.71 ms, requests/s 1,754 → 1,760.
  await expect(page.getByTestId("ab-row-p50")).toContainText("1.87 ms1.71 ms−8.6 %");
  await expect(page.getByTestId("ab-row-rate")).toContainText("1,7541,760+0.3 %");
  await expect(page.getByTestId("ab-published")).toContainText("Cache, 200 VUs, baseline (logged table); Cache, 200 VUs, modded (UNLOGGED table)");
  await expect(page.getByTestId("ab-compare-link")).toHaveAttribute("href", /,yong-cache-200vu-baseline,yong-cache-200vu-modded&base=r_/);
});
