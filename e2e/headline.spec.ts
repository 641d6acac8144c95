// One headline (issue 29): a run whose readers fell behind says so in its headline, with the backlog, and carries
// one verdict: the page leads with it, the runner's load is inside it (never a Client-bound banner beside it), and
// the verification tile says nothing was lost and that the consumers did not keep up (not a green "passed" alone).
import { expect, test } from "@playwright/test";
import { RunPage } from "./pages/RunPage";
import { SAME_ORIGIN } from "./same-origin";

test("a run whose readers fell behind: its headline says so with the backlog, one verdict, no second banner", async ({ page, request }) => {
  test.setTimeout(240_000);
  // One reader per group claiming one message at a time (read batch 1) against 8,000 msg/s written in batches of
  // 100: one round trip per message cannot take that on this machine or a much faster one. 5 s measured.
  const config = { kind: "pubsub", partitions: 1, readBatch: 1, writers: 2, throttleWritesPerSec: 8000, warmupSeconds: 1, durationSeconds: 5 };
  const res = await request.post("/api/runs", { headers: SAME_ORIGIN, data: { config } });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: string };

  const run = new RunPage(page);
  await run.open(id);
  // It may queue behind another spec's runs on the app's one runner.
  await run.waitForStatus("completed", 200_000);

  const result = page.getByTestId("run-result");
  // The page leads with the verdict: the first thing in the result, and the only one.
  await expect(result.locator(":scope > *").first()).toHaveAttribute("data-testid", "verdict");
  await expect(page.getByTestId("verdict")).toHaveCount(1);
  await expect(page.getByTestId("verdict-category")).toHaveCount(1);
  // No second banner: the runner's load is inside the verdict (a caution at most), nothing alarms beside it.
  await expect(page.getByTestId("client-bound")).toHaveCount(0);
  // (The run page's own alerts: Next's route announcer, outside it, is an empty role="alert" of every page.)
  await expect(page.getByTestId("run-page").getByRole("alert")).toHaveCount(0);
  await expect(page.locator(".alert.bad")).toHaveCount(0);
  await expect(page.getByTestId("verdict")).not.toContainText(/the runner was the limit/);

  // The headline says the consumers fell behind, with the backlog (as the headline, or beside the cause it names).
  const statement = page.getByTestId("verdict-statement");
  await expect(statement).toContainText(
    /the consumers took [\d,.]+ of the [\d,.]+ msg\/s written; the backlog grew [\d,.]+ msg\/s to [\d,.]+ at the window's end, [\d,]+ unread after the drain/,
  );

  // The verification tile: nothing lost, and the consumers did not keep up, with what was left unread.
  const tile = page.getByTestId("kpi-verification");
  await expect(tile).toHaveAttribute("data-kept-up", "false");
  await expect(page.getByTestId("kpi-verified")).toHaveText("nothing lost");
  await expect(page.getByTestId("kpi-kept-up")).toHaveText("consumers behind");
  await expect(page.getByTestId("kpi-keep-up")).toHaveText(/^the consumers fell behind: read [\d,]+ of [\d,]+ msg\/s written, [\d,]+ msgs unread at the end$/);
  await expect(tile.locator(".badge.ok")).toHaveCount(0);
  // The verification panel says both, and is not green.
  await expect(run.verification()).toHaveAttribute("data-ok", "true");
  await expect(run.verification()).toHaveAttribute("data-kept-up", "false");
  await expect(run.verification()).toContainText(/^Verification passed: nothing lost, but the consumers fell behind: read [\d,]+ of [\d,]+ msg\/s written/);
  await expect(run.verification()).not.toHaveClass(/\bok\b/);

  // The same after a reload (server-rendered from the stored summary).
  await page.reload();
  await expect(page.getByTestId("verdict")).toHaveCount(1);
  await expect(page.getByTestId("client-bound")).toHaveCount(0);
  await expect(page.getByTestId("kpi-verification")).toHaveAttribute("data-kept-up", "false");
});
