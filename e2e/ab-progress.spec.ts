// The A/B page while its runs go and after: a progress bar that advances and the time left, measured from the
// runs' own times (a lower bound until the first run ends, then with the overhead that run measured); at the end,
// each measure whose interval is too wide to resolve its difference says how many pairs or how long a window
// would. Launched through the New run page as a person would: 2 pairs of short cache runs (5 s each, no warm-up:
// the app's one runner is the e2e suite's bottleneck, and 20 s of runs show the bar, the time left and the advice
// as well as the quick look's 48 s did).
import { expect, test } from "@playwright/test";
import { NewRunPage } from "./pages/NewRunPage";

/** Short and small on 2 cores: 4 VUs, 300 keys, a pool of 2, no warm-up, 5 s measured. */
const SHORT = { "Virtual users": 4, "Think time": 5, Keys: 300, "Connection pool": 2, "Warm-up": 0, "Measured duration": 5 };

test("a short A/B shows its progress and time left, then what would resolve its too-wide intervals", async ({ page }) => {
  test.setTimeout(420_000);
  const form = new NewRunPage(page);
  await form.open();
  await page.getByRole("radiogroup", { name: "Workload" }).getByText("cache", { exact: true }).click();
  await form.fill(SHORT);
  await page.getByTestId("ab-pairs").fill("2");
  await page.getByRole("button", { name: "Run baseline and modded" }).click();
  await expect(page).toHaveURL(/\/runs\/ab\?group=ab_[0-9a-f]+$/);

  // While the runs go: runs done of total, the bar and the time left.
  const bar = page.getByTestId("ab-progress").getByRole("progressbar", { name: "A/B progress" });
  const label = page.getByTestId("ab-progress-label");
  const left = page.getByTestId("ab-time-left");
  await expect(label).toHaveText(/^[0-3] of 4 runs done$/);
  await expect(left).toHaveText(/^(at least|about) (\d+m )?\d+s left \(/);
  const value = async () => Number(await bar.getAttribute("aria-valuenow"));
  const first = await value();
  expect(first).toBeLessThan(100);
  // The bar advances as the runs' clocks run (the page polls each second).
  await expect.poll(value, { timeout: 60_000 }).toBeGreaterThan(first);
  // Once a run has ended, the time left adds what it measured beyond its load.
  await expect(label).toHaveText(/^[1-3] of 4 runs done$/, { timeout: 120_000 });
  await expect(left).toHaveText(
    /^about (\d+m )?\d+s left \(the planned load of the runs to come, plus (\d+\.\d|(\d+m )?\d+)s each: what the finished runs took beyond theirs\)$/,
  );
  const secondsLeft = async () => {
    const m = (await left.textContent())?.match(/(?:(\d+)m )?(\d+)s left/);
    return m ? Number(m[1] ?? 0) * 60 + Number(m[2]) : Number.NaN;
  };
  const before = await secondsLeft();
  // Time left stays put while the A/B's next run waits behind another spec's run on the app's one runner.
  await expect.poll(secondsLeft, { timeout: 150_000 }).toBeLessThan(before);

  // At the end: the bar full, every run done, each measure with its interval.
  await expect(page.getByTestId("ab-table")).toBeVisible({ timeout: 180_000 });
  await expect(label).toHaveText("4 of 4 runs done");
  await expect(bar).toHaveAttribute("aria-valuenow", "100");
  await expect(left).toHaveText(/^all ended, (\d+m )?\d+s in all$/);

  // 2 pairs of short runs give intervals of hundreds of percent: each one that includes zero says so, with the
  // pairs or the window that would resolve it, estimated from the measured spread.
  const within: string[] = [];
  for (const [key, name] of [
    ["p50", "p50"],
    ["p95", "p95"],
    ["avg", "average"],
    ["rate", "requests/s"],
  ])
    if ((await page.getByTestId(`ab-finding-${key}`).textContent()) === "within noise") within.push(name);
  expect(within.length, "2 pairs of 5 s leave at least one measure within noise").toBeGreaterThan(0);
  const advice = page.getByTestId("ab-advice").locator("li");
  await expect(advice).toHaveCount(within.length);
  for (const [i, name] of within.entries())
    await expect(advice.nth(i)).toHaveText(
      new RegExp(
        `^${name.replace("/", "\\/")}: the interval \\([+−][\\d.]+ % … [+−][\\d.]+ %\\) is too wide to resolve the difference \\S+( %)?: run (more than 1,000 pairs|[\\d,]+ pairs) or 2 pairs of [\\d,]+ s windows \\(sd of the pair differences [^)]+\\)\\.$`,
      ),
    );
  await expect(page.getByTestId("ab-advice-basis")).toHaveText(/^Estimates from the measured spread of the 2 pair differences \(5 s windows\): /);
});
