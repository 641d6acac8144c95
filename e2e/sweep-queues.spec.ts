// The queues sweep in the browser: from the New run form of queued workflows, one run per queue count is
// queued, followed until each has ended, and their comparison opens with one item per count.
import { expect, test } from "@playwright/test";
import { NewRunPage } from "./pages/NewRunPage";

test("Sweep queues launches one run per count, back to back, then opens their comparison", async ({ page }) => {
  test.setTimeout(180_000);
  const form = new NewRunPage(page);
  await form.open("?preset=queued-workflows-defaults");
  const sweep = page.getByTestId("sweep-queues");
  await expect(sweep).toBeVisible();
  // Small and short: the runner runs both on this machine in a few seconds each.
  await form.fill({
    Enqueuers: 2,
    Workers: 2,
    "Executors per worker": 2,
    "Target enqueue rate": 100,
    "Polling interval": 200,
    "Warm-up": 0,
    "Measured duration": 2,
  });

  const counts = sweep.getByRole("textbox", { name: "Queue counts" });
  await counts.fill("1,x");
  await expect(counts).toHaveAccessibleDescription(/"x" is not a number of queues from 1 to 1024/);
  await expect(sweep.getByRole("button", { name: "Launch sweep" })).toBeDisabled();
  await counts.fill("1,3");
  await expect(counts).toHaveAccessibleDescription(/^2 runs, each loading the target up to 12 s$/);
  await sweep.getByRole("button", { name: "Launch sweep" }).click();

  const listed = sweep.getByTestId("sweep-runs");
  await expect(listed).toContainText("1 queue: r_");
  await expect(listed).toContainText("3 queues: r_");
  await page.waitForURL(/\/compare\?ids=r_[^,]+,r_/, { timeout: 150_000 });
  const ids = new URL(page.url()).searchParams.get("ids")!.split(",");
  expect(ids).toHaveLength(2);
  await expect(page.getByTestId("compare-problems")).toHaveCount(0);
  for (const id of ids) {
    const run = await (await page.request.get(`/api/runs/${id}`)).json();
    expect(run.status).toBe("completed");
  }
  const queues = await Promise.all(ids.map(async (id) => (await (await page.request.get(`/api/runs/${id}`)).json()).config.queues));
  expect(queues).toEqual([1, 3]);

  // A run of the sweep is an ordinary run: its page shows what the workload measures.
  await page.goto(`/runs/${ids[1]}`);
  await expect(page.getByText("Enqueue-to-completion latency").first()).toBeVisible();
  await expect(page.getByText("3 queues").first()).toBeVisible();
});
