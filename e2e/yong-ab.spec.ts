// "Run baseline and modded" on the New run page: an A/B of short cache runs, N pairs queued in ABBA order, then
// the page that follows them and shows each of the article's four measures with its spread, the 95 % interval of
// the pair differences and "within noise" or a significant difference; the full comparison opens from it. The
// published preset's shape brings the published pair beside ours, labelled one run each.
import { expect, test } from "@playwright/test";
import { NewRunPage } from "./pages/NewRunPage";

test.describe.configure({ mode: "serial" });

/** Short and small on 2 cores: 4 VUs, 300 keys, a pool of 2, no warm-up, 2 s measured. */
const SHORT = { "Virtual users": 4, "Think time": 5, Keys: 300, "Connection pool": 2, "Warm-up": 0, "Measured duration": 2 };

test("cache: an A/B of 2 pairs runs in ABBA order and shows each measure with its interval and whether it is noise", async ({ page }) => {
  const form = new NewRunPage(page);
  await form.open();
  await page.getByRole("radiogroup", { name: "Workload" }).getByText("cache", { exact: true }).click();
  await form.fill(SHORT);
  await expect(page.getByTestId("ab-pairs")).toHaveValue("3");
  await page.getByTestId("ab-pairs").fill("2");
  await page.getByRole("button", { name: "Run baseline and modded" }).click();

  await expect(page).toHaveURL(/\/runs\/ab\?group=ab_[0-9a-f]+$/);
  await expect(page.getByRole("heading", { name: "Baseline and modded: cache (closed loop)" })).toBeVisible();
  await expect(page.getByTestId("ab-order")).toContainText("in the balanced order AB BA");
  const rows = page.getByTestId("ab-runs").locator("tbody tr");
  await expect(rows).toHaveCount(4);
  const variants = await rows.locator("th").allTextContents();
  expect(variants).toEqual(["baseline", "modded", "modded", "baseline"]);

  // All four complete, one after the other; then each measure with its spread, delta, interval and finding.
  await expect(page.getByTestId("ab-table")).toBeVisible({ timeout: 180_000 });
  for (const i of [0, 1, 2, 3]) await expect(page.getByTestId(`ab-status-${i}`)).toHaveText("completed");
  const headers = await page.getByTestId("ab-table").locator("thead th").allTextContents();
  expect(headers).toEqual(["all requests", "baseline", "modded", "delta", "95 % interval of the difference", "result"]);
  for (const key of ["p50", "p95", "avg", "rate"]) {
    await expect(page.getByTestId(`ab-delta-${key}`)).toHaveText(/^([+−±]\d+\.\d %|×[\d,.]+ the \S+|÷[\d,.]+)$/);
    await expect(page.getByTestId(`ab-ci-${key}`)).toHaveText(/^[+−]\d+\.\d % … [+−]\d+\.\d %$/);
    await expect(page.getByTestId(`ab-finding-${key}`)).toHaveText(/^(within noise|modded lower|modded higher)$/);
  }
  // Pooled figures with the runs' range in brackets.
  await expect(page.getByTestId("ab-row-p50").locator("td").first()).toHaveText(/^[\d.]+ m?s \([\d.]+–[\d.]+ m?s\)$/);
  // The closed loop's work, beside the deltas.
  await expect(page.getByTestId("ab-notes")).toContainText(/(Unequal work|Work) \(closed loop\): baseline ran [\d,]+ requests and modded [\d,]+/);
  await expect(page.getByTestId("ab-published")).toContainText("No published pair has this config's shape");

  // Each is an ordinary run with the same load, only the variant differs.
  const ids = await rows.locator("td a").allTextContents();
  const runs = await Promise.all(
    ids.map(async (id) => (await (await page.request.get(`/api/runs/${id}`)).json()) as { config: Record<string, unknown>; startedAt: string }),
  );
  expect(runs.map((r) => r.config.variant)).toEqual(["baseline", "modded", "modded", "baseline"]);
  for (const r of runs) expect({ ...r.config, variant: "x" }).toEqual({ ...runs[0].config, variant: "x" });
  expect(runs[0].config).toMatchObject({ vus: 4, thinkMs: 5, keys: 300, pool: 2, load: "vus", durationSeconds: 2 });
  // They ran in that order.
  const started = runs.map((r) => Date.parse(r.startedAt));
  expect([...started].sort((a, b) => a - b)).toEqual(started);

  // The full comparison: every run, the first baseline as its baseline.
  await page.getByTestId("ab-compare-link").click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?ids=${ids.join(",")}&base=${ids[0]}$`));
  await expect(page.getByTestId("selected-items").locator(".chip")).toHaveCount(4);
});

test("the published preset's shape brings the published pair beside our deltas", async ({ page }) => {
  const form = new NewRunPage(page);
  await form.open();
  await form.choosePreset("cache: 200 VUs, baseline (logged table) (published)");
  // The article's load (200 VUs, think time derived from the published figures), in a short window.
  await form.fill({ "Warm-up": 0, "Measured duration": 2 });
  // One pair keeps it short: the page says it has no interval.
  await page.getByTestId("ab-pairs").fill("1");
  await page.getByRole("button", { name: "Run baseline and modded" }).click();
  await expect(page).toHaveURL(/\/runs\/ab\?group=/);
  await expect(page.getByTestId("ab-table")).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId("ab-finding-p50")).toHaveText("no interval (one pair)");
  await expect(page.getByTestId("ab-notes")).toContainText("One pair: no interval, so a difference cannot be told from noise");
  // The article's figures and their deltas (our arithmetic), labelled one run each: p50 1.87 → 1.71 ms, requests/s 1,754 → 1,760.
  const published = page.getByTestId("ab-published");
  await expect(published.getByRole("heading")).toHaveText("Published pair (one run each)");
  await expect(published.locator("tr", { hasText: "p50" })).toContainText("1.87 ms1.71 ms−8.6 %");
  await expect(published.locator("tr", { hasText: "requests/s" })).toContainText("1,7541,760+0.3 %");
  await expect(published).toContainText("Cache, 200 VUs, baseline (logged table); Cache, 200 VUs, modded (UNLOGGED table)");
  await expect(page.getByTestId("ab-compare-link")).toHaveAttribute("href", /,yong-cache-200vu-baseline,yong-cache-200vu-modded&base=r_/);
});
