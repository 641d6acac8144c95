// DBOS's workflows in the browser: the New run form asks exactly their fields (target rate, connections, steps,
// the DBOS profile), launches a short run, and the run page shows what the workload declares it measures
// (workflows/s, write transactions/s, workflow latency) with the drain time and a passing verification.
import { expect, test } from "@playwright/test";
import { NewRunPage } from "./pages/NewRunPage";
import { RunPage } from "./pages/RunPage";

test("a short workflows run with a step on the current profile, from the form to its verified result", async ({ page }) => {
  const form = new NewRunPage(page);
  await form.open();
  await page.getByRole("radiogroup", { name: "Workload" }).getByText("workflows", { exact: true }).click();
  await expect(form.field("Writers"), "no broker fields").toHaveCount(0);
  await page.getByLabel("DBOS version profile").selectOption("current");
  await form.fill({ "Target rate": 40, Connections: 2, Steps: 1, "Warm-up": 0, "Measured duration": 3 });
  await expect(form.connections()).toContainText("This run opens 4 connections"); // 2 + set-up + telemetry
  const id = await form.launch();

  const run = new RunPage(page);
  await run.waitForStatus("completed", 90_000);
  await expect(run.verification()).toHaveAttribute("data-ok", "true");
  await expect(page.getByTestId("kpi-workflow")).toBeVisible();
  await expect(page.getByTestId("latency-table")).toContainText("workflow from schedule");
  await expect(page.getByTestId("run-result")).toContainText(/drain time \d+\.\d{3} s \(> 0 means the database could not keep up\)/);
  const summary = (await (await page.request.get(`/api/runs/${id}`)).json()).summary;
  expect(summary.config).toMatchObject({ kind: "workflows", profile: "current", steps: 1, rate: 40, connections: 2 });
  // The run's own counts, never a nominal 40/s × 3 s: a loaded machine finishes fewer workflows in the window (the
  // rest finish in the drain, or are noted as never run). Some finished in the window, the table the verification
  // counted holds every one of them, and the page shows the numbers the summary holds.
  const inWindow = summary.operations.workflow.count;
  const whole = summary.totals.operations.workflow;
  expect(inWindow).toBeGreaterThan(0);
  expect(whole).toBeGreaterThanOrEqual(inWindow);
  expect(summary.verification.checked).toBeGreaterThanOrEqual(whole);
  const shownRate = Number((await page.getByTestId("kpi-workflow").textContent())!.replace(/,/g, ""));
  expect(shownRate).toBeCloseTo(summary.operations.workflow.perSecond, 0);
  // In the workload's own unit: workflows, never messages.
  expect(summary.verification.unit).toBe("workflow");
  await expect(run.verification()).toContainText(new RegExp(`\\b${summary.verification.checked.toLocaleString("en-US")} workflows checked`));
  await expect(run.verification()).not.toContainText("messages");
});
