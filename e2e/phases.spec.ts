// Fault and bloat phases in the browser: a queue library launched from the New run form with a phase written in its
// Phases field; the live page shades the phase on its charts while the run is still going, and the finished run reports
// the phase (the consumers' rate before, during and after it, and its recovery). A phase that does not fit the run is
// refused under its field, in words, before launch. Also: a pg-boss drain from the form to its verified result.
import { expect, test } from "@playwright/test";
import { NewRunPage } from "./pages/NewRunPage";
import { RunPage } from "./pages/RunPage";

test("a pg-boss run with a pause-workers phase from the form: shaded on the live charts, then reported with its recovery", async ({ page }) => {
  const form = new NewRunPage(page);
  await form.open();
  await form.chooseWorkload("pg-boss");
  await form.fill({ "Warm-up": 1, "Measured duration": 16, Phases: "pause-workers@20s+4s" });
  // Outside the run: refused under the field, in words, before anything is launched.
  await expect(page.getByText(/pause-workers@20s\+4s starts at 20 s, after the run's 17 s: start it earlier or run longer/)).toBeVisible();
  // Built with the adder under the field instead, as someone who does not know the syntax would.
  await form.fill({ Phases: "" });
  const adder = page.getByTestId("phase-adder");
  await adder.getByLabel("Phase kind").selectOption("pause-workers");
  await adder.getByLabel("Phase start (s)").fill("5");
  await adder.getByLabel("Phase length (s)").fill("4");
  await adder.getByRole("button", { name: "Add phase" }).click();
  await expect(form.field("Phases")).toHaveValue("pause-workers@5s+4s");
  const id = await form.launch();

  const run = new RunPage(page);
  // While it runs, every chart carries the phase's band, labelled with its kind.
  const bands = page.locator("[data-testid=run-stream] .phase-band");
  await expect(bands.first()).toBeVisible({ timeout: 30_000 });
  const live = await page.getByTestId("run-status").textContent();
  expect(await bands.count(), "a band on each chart").toBeGreaterThanOrEqual(3);
  await expect(page.locator("[data-testid=run-stream]")).toContainText("pause-workers");

  await run.waitForStatus("completed", 90_000);
  expect(live, "the bands were there before the run finished").not.toMatch(/completed/i);
  await expect(run.verification()).toHaveAttribute("data-ok", "true");
  const row = page.getByTestId("phase-report");
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute("data-phase", "pause-workers");
  await expect(row).toContainText("paused the consumers between their turns");
  await expect(row).toContainText(/recovered [\d.]+ s after it ended|not recovered in the [\d.]+ s after it/);
  const summary = (await (await page.request.get(`/api/runs/${id}`)).json()).summary;
  expect(summary.config.phases).toBe("pause-workers@5s+4s");
  const p = summary.phases[0];
  // The consumers stopped: the pause's whole seconds read nothing, or nearly, against the rate before it.
  expect(p.during.perSecond).toBeLessThan(0.1 * p.before.perSecond);
  // The reproducing command carries the phase.
  await expect(page.getByTestId("cli-command")).toContainText("--phase pause-workers@5s+4s");
});

test("a pg-boss drain from the form to its verified result, in jobs", async ({ page }) => {
  const form = new NewRunPage(page);
  await form.open();
  const picker = page.getByRole("radiogroup", { name: "Workload" });
  await expect(picker).toContainText("Queue libraries");
  await picker.getByText("graphile-worker", { exact: true }).click();
  await expect(form.field("Worker pools")).toHaveCount(1);
  await expect(form.field("Concurrency")).toHaveCount(1);
  await picker.getByText("pg-boss", { exact: true }).click();
  await expect(form.field("Worker pools"), "no graphile-worker fields").toHaveCount(0);
  await page.getByLabel("Mode").selectOption("drain");
  await form.fill({ "Jobs to drain": 2000, "Batch size": 50, "Warm-up": 0, "Measured duration": 60 });
  const id = await form.launch();

  const run = new RunPage(page);
  await run.waitForStatus("completed", 90_000);
  await expect(run.verification()).toHaveAttribute("data-ok", "true");
  await expect(run.verification()).toContainText(/\b2,000 jobs checked/);
  await expect(page.getByTestId("run-result")).toContainText(/pre-loaded 2,000 jobs in [\d.]+ s; the workers drained them in [\d.]+ s: [\d,]+ jobs\/s/);
  const summary = (await (await page.request.get(`/api/runs/${id}`)).json()).summary;
  expect(summary.config).toMatchObject({ kind: "pg-boss", mode: "drain", drainJobs: 2000, batchSize: 50 });
  // The window ended with the drain, well before its 60 s.
  expect(summary.window.measuredSeconds).toBeLessThan(50);
  await expect(run.verification()).not.toContainText("messages");
});
