// A repeated set in the browser (issue 33): from the New run form, a small queue run three times, one after the
// other; the set's page follows them to the end, then shows each figure pooled over the repeats, the median of
// their own figures with the interval of that median and its confidence, and their spread; the pooled rate is the
// runs' own writes over their own seconds, read back from their summaries.
import { expect, test } from "@playwright/test";
import { NewRunPage } from "./pages/NewRunPage";

test("Repeat runs one config 3 times and shows each figure with its spread and the interval of its median", async ({ page, request }) => {
  test.setTimeout(240_000);
  const form = new NewRunPage(page);
  await form.open("?preset=queue-defaults");
  await form.fill({ Writers: 1, Readers: 1, "Write limit": 100, "Warm-up": 0, "Measured duration": 2 });
  const panel = page.getByTestId("repeat-runs");
  const count = panel.getByRole("spinbutton", { name: "Runs" });
  await expect(count).toHaveValue("6");
  await count.fill("1");
  await expect(count).toHaveAccessibleDescription("a whole number from 2 to 20");
  await expect(panel.getByRole("button", { name: "Launch runs" })).toBeDisabled();
  await count.fill("3");
  await expect(count).toHaveAccessibleDescription(/^3 runs, each loading the target up to .*; 6 or more give a 95 % interval of the median$/);
  await panel.getByRole("button", { name: "Launch 3 runs" }).click();

  await expect(page).toHaveURL(/\/runs\/repeat\?group=rp_[0-9a-f]{12}$/);
  await expect(page.getByRole("heading", { name: "Repeated: queue" })).toBeVisible();
  await expect(page.getByTestId("repeat-runs").locator("tbody tr")).toHaveCount(3);
  await expect(page.getByTestId("repeat-table")).toBeVisible({ timeout: 200_000 });
  for (const i of [0, 1, 2]) await expect(page.getByTestId(`repeat-status-${i}`)).toHaveText("completed");
  await expect(page.getByTestId("repeat-table").locator("caption")).toContainText("here at 75 %: 3 repeats can only give [min, max]; 6 reach 95 %");

  // The write rate: pooled over the three windows, the median's interval their min and max at 75 %.
  const row = page.getByTestId("repeat-row-write.perSecond");
  const cells = await row.locator("td").allTextContents();
  const ids = await page.getByTestId("repeat-runs").locator("tbody a").allTextContents();
  const summaries = await Promise.all(ids.map(async (id) => (await request.get(`/api/runs/${id}/summary`)).json()));
  const writes = summaries.reduce((a, s) => a + s.operations.write.count, 0);
  const seconds = summaries.reduce((a, s) => a + s.window.measuredSeconds, 0);
  const rates = summaries.map((s) => s.operations.write.perSecond as number).sort((a, b) => a - b);
  const text = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 1 });
  expect(cells[0]).toBe(`${text(writes / seconds)} msg/s`);
  expect(cells[1]).toBe(`${text(rates[1])} msg/s`);
  expect(cells[2]).toBe(`${text(rates[0])}–${text(rates[2])} msg/s at 75%`);
  // Latencies too, each with its interval.
  await expect(page.getByTestId("repeat-row-e2e.p99").locator("td").nth(2)).toHaveText(/^[\d.,]+–[\d.,]+ ms at 75%$/);
  await expect(page.getByTestId("repeat-compare-link")).toHaveAttribute("href", `/compare?ids=${ids.join(",")}`);
});
