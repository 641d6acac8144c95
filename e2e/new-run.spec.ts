// The New run form never launches what the user did not see, and a long run is never a surprise: blank
// and non-numeric fields are refused beside the field, readers per group are derived (not asked twice),
// the total time is shown by the Launch button and a run over 5 minutes is confirmed in the page, and
// "Run this here" brings the reference page's fit warnings and a short window by default; a run the runner
// could not hold in memory is refused beside Payload.
import { embeddedServer } from "./embedded";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { workloadDefinition, WorkloadConfig } from "../lib/workloads/config";
import { NewRunPage } from "./pages/NewRunPage";
import { RunPage } from "./pages/RunPage";
import { SAME_ORIGIN } from "./same-origin";

test.describe.configure({ mode: "serial" });

const runCount = async (request: APIRequestContext) => ((await (await request.get("/api/runs")).json()).runs as unknown[]).length;

test("a blank or non-numeric field is refused beside it, and nothing launches", async ({ page, request }) => {
  const before = await runCount(request);
  const form = new NewRunPage(page);
  await form.open();
  await form.fill({ Writers: "" });
  await expect(form.field("Writers")).toHaveAttribute("aria-invalid", "true");
  await expect(form.field("Writers")).toHaveAccessibleDescription("Writers is required: enter a whole number");
  await expect(form.totalTime(), "no total for a form that cannot launch").toHaveCount(0);
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page.getByTestId("form-error")).toContainText("Fix the field marked in red");
  await expect(form.field("Writers")).toBeFocused();

  await form.fill({ Writers: "abc", "Measured duration": "0" });
  await expect(form.field("Writers")).toHaveAccessibleDescription('Writers must be a whole number, not "abc"');
  await expect(form.field("Measured duration")).toHaveAccessibleDescription("Measured duration must be at least 1 s");
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page.getByTestId("form-error")).toContainText("Fix the 2 fields marked in red");
  await expect(page).toHaveURL(/\/runs\/new$/);
  expect(await runCount(request), "no run was queued").toBe(before);

  await form.fill({ Writers: "2", "Measured duration": "10" });
  await expect(form.field("Writers")).not.toHaveAttribute("aria-invalid", "true");
  await expect(form.totalTime()).toContainText("Up to 25s"); // 5 s warm-up + 10 s + up to 10 s drain

  // The API refuses the same input the same way, every bad field at once, in the form's words.
  const bad = await request.post("/api/runs", {
    headers: SAME_ORIGIN,
    data: { config: { kind: "pubsub", writers: "", durationSeconds: "abc", partitions: 2, readers: 3 } },
  });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).fields).toEqual({
    writers: "Writers is required: enter a whole number",
    durationSeconds: 'Measured duration must be a whole number, not "abc"',
    readers:
      "Readers per group (3) must equal Partitions (2): each consumer group has exactly one reader per partition, as in the reference tool. Set readers to 2, or leave it out to follow partitions",
  });
  expect(await runCount(request)).toBe(before);
});

test("a run over the runner's memory budget is refused beside Payload, with the estimate and what to lower", async ({ page, request }) => {
  const before = await runCount(request);
  const form = new NewRunPage(page);
  await form.open();
  await form.choosePreset("pub/sub: reference tool defaults");
  // 1 writer × write batch 50 × 10 MiB × 4 is 2,000 MiB: over any default budget (at most 2,048 MiB) with the rest.
  await form.fill({ Writers: 1, Partitions: 1, "Write batch": 50, "Read batch": 1, Payload: 10 * 1048576 });
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(form.field("Payload")).toHaveAttribute("aria-invalid", "true");
  await expect(form.field("Payload")).toHaveAccessibleDescription(
    /^this run would hold about 2\.1 GiB of message data in the runner \(1 writer × write batch 50 × 10 MiB payload × 4 .*: lower Payload, Write batch, Writers, Read batch, Partitions or Consumer groups, or raise RUNNER_MEMORY_BUDGET_MB/,
  );
  await expect(page).toHaveURL(/\/runs\/new$/);
  expect(await runCount(request), "no run was queued").toBe(before);
});

test("pub/sub readers per group are shown as derived from partitions, not asked", async ({ page }) => {
  const form = new NewRunPage(page);
  await form.open();
  await form.choosePreset("pub/sub: reference tool defaults");
  await expect(form.field("Readers per group")).toHaveCount(0);
  await expect(form.derived("readers")).toHaveText("10");
  await expect(page.locator('[data-field="readers"]')).toContainText("Readers per group");
  await form.fill({ Writers: 1, Partitions: 3, "Consumer groups": 2 });
  await expect(form.derived("readers")).toHaveText("3");
  await expect(form.connections()).toContainText("This run opens 9 connections"); // 1 + 3 × 2 + set-up + telemetry
  // The same run from a terminal reaches the same default target: the e2e app runs on its own data folder and
  // port, so the preview carries them, as the run page's command does.
  await page.getByText("Same run from a terminal").click();
  await expect(page.locator("pre.cmd")).toContainText(
    `DATA_DIR=${process.env.E2E_DATA_DIR} EMBEDDED_TARGET_PG_PORT=${embeddedServer("target").port} npm run bench -- pubsub -writers 1 -readers 3 -consumer-groups 2 -partitions 3`,
  );
  await form.fill({ Partitions: "" });
  await expect(form.derived("readers"), "nothing to derive from a blank field").toHaveText("—");

  // A queue's readers are its own knob.
  await form.chooseWorkload("queue");
  await expect(form.field("Readers")).toBeVisible();
  await expect(form.derived("readers")).toHaveCount(0);
});

test("a run longer than 5 minutes shows its total time and is confirmed in the page before it launches", async ({ page, request }) => {
  const form = new NewRunPage(page);
  await form.open();
  await form.fill({ Writers: 1, Partitions: 1, "Write limit": 200, "Warm-up": 1, "Measured duration": 400 });
  await expect(form.totalTime()).toContainText("Up to 6m 51s"); // 1 + 400 + up to 10 s drain
  await expect(form.totalTime()).toContainText("1s warm-up + 6m 40s measured + up to 10s draining");
  const before = await runCount(request);

  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(form.confirmation()).toContainText("This run loads the target for up to 6m 51s.");
  await expect(form.confirmation()).toBeFocused();
  await page.waitForTimeout(500);
  await expect(page).toHaveURL(/\/runs\/new$/);
  expect(await runCount(request), "Launch alone queues nothing").toBe(before);

  // Going back, or changing the run, asks again.
  await form.confirmation().getByRole("button", { name: "Go back" }).click();
  await expect(form.confirmation()).toHaveCount(0);
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(form.confirmation()).toBeVisible();
  await form.fill({ "Measured duration": 401 });
  await expect(form.confirmation()).toHaveCount(0);

  // Under 5 minutes in total needs no confirmation (checked without launching: the dialog never shows).
  await form.fill({ "Measured duration": 280 });
  await expect(form.totalTime()).toContainText("Up to 4m 51s");
  await expect(form.totalTime()).not.toHaveClass(/long/);

  await form.fill({ "Measured duration": 400 });
  await expect(form.confirmation(), "coming back to a confirmed value does not re-open the question").toHaveCount(0);
  const id = await form.launchLong();
  const run = new RunPage(page);
  expect((await (await request.get(`/api/runs/${id}`)).json()).config).toMatchObject({ durationSeconds: 400, warmupSeconds: 1, writers: 1 });
  await run.cancel();
  await run.waitForStatus("cancelled", 30_000);
});

test("Run this here: the reference page's fit warnings on the form, and the preset's shape with a short window by default", async ({ page }) => {
  await page.goto("/references/queue-4vcpu-single-node");
  const onReference = await page.getByTestId("fit-warnings").locator("li").allTextContents();
  expect(
    onReference.some((t) => /1800 s \(30 min\)/.test(t)),
    "the reference page warns about the 30-minute window",
  ).toBe(true);

  await page.getByTestId("run-here-queue-4vcpu-single-node").click();
  await expect(page).toHaveURL(/\/runs\/new\?preset=queue-4vcpu-single-node$/);
  const form = new NewRunPage(page);
  await expect(form.field("Writers")).toHaveValue("10");
  await expect(form.field("Readers")).toHaveValue("15");
  await expect(form.field("Write limit")).toHaveValue("2900");

  // Short by default: same shape, 60 s measured.
  const choice = form.windowChoice();
  await expect(choice.getByRole("radio", { name: "Short: same shape, 60 s window" })).toBeChecked();
  await expect(form.field("Measured duration")).toHaveValue("60");
  await expect(form.totalTime()).toContainText("Up to 1m 15s");
  // The same warnings as the reference page, for the run as it stands (the 60 s window needs no length warning).
  const shortWarnings = form.fitWarnings().locator("li");
  await expect(shortWarnings).toHaveText(onReference.filter((t) => !/measured window is/.test(t)));

  // The full published length: the run-length warning joins, the list is the reference page's exactly.
  await choice.getByRole("radio", { name: "Full published length: 30m 00s" }).check();
  await expect(form.field("Measured duration")).toHaveValue("1800");
  await expect(form.fitWarnings().locator("li")).toHaveText(onReference);
  await expect(form.fitWarnings().locator('li[data-field="durationSeconds"]')).toContainText("consider a shorter run first");
  await expect(form.totalTime()).toContainText("Up to 30m 15s");
  await expect(form.totalTime()).toHaveClass(/long/);

  // Launch asks first, and offers the short window again.
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(form.confirmation()).toContainText("up to 30m 15s");
  await form.confirmation().getByRole("button", { name: "Use a 60 s window instead" }).click();
  await expect(form.confirmation()).toHaveCount(0);
  await expect(choice.getByRole("radio", { name: "Short: same shape, 60 s window" })).toBeChecked();
  await expect(form.field("Measured duration")).toHaveValue("60");
  await expect(page).toHaveURL(/\/runs\/new\?preset=queue-4vcpu-single-node$/);
});

test("picking cache or search shows the preset its fields hold, and (edited) only after an edit", async ({ page }) => {
  const form = new NewRunPage(page);
  await form.open();
  for (const kind of ["cache", "search"]) {
    const d = workloadDefinition(kind)!;
    const preset = d.presets.find((p) => p.id === d.defaultPresetId)!;
    const config = WorkloadConfig.parse(preset.config) as Record<string, unknown>;
    await form.chooseWorkload(d.title);
    await expect(page.getByLabel("Preset")).toHaveValue(preset.id);
    await expect(form.presetNote()).toHaveText(preset.description);
    // The fields hold the preset's values: its VUs and its length, not the workload's defaults.
    for (const f of d.fields.filter((x) => x.control === "int" && !x.derivedFrom && config[x.name] !== undefined))
      await expect(form.field(f.label), `${kind}: ${f.label}`).toHaveValue(String(config[f.name]));
    await form.fill({ "Measured duration": 7 });
    await expect(form.presetNote()).toHaveText(`${preset.description} (edited)`);
  }
});

test("Find the ceiling states its longest total time before it starts, as the run form does", async ({ page }) => {
  const form = new NewRunPage(page);
  await form.open();
  await form.fill({ "Warm-up": 5 });
  const box = page.getByTestId("find-ceiling");
  await box.locator("summary").click();
  const total = page.getByTestId("ceiling-total-time");
  // 16 steps × (5 s warm-up + 30 s + up to 10 s draining), and 3 confirmations × (5 s + 4 steps' 120 s + 10 s).
  await expect(total).toContainText("18m 45s as set");
  await expect(total).toContainText("At most 16 steps × (5s warm-up + 30s measured + up to 10s draining), and up to 3 confirmation runs of 2m 00s");
  await box.getByRole("textbox", { name: "Maximum steps", exact: true }).fill("4");
  await box.getByRole("textbox", { name: "Step (s)", exact: true }).fill("10");
  await expect(total).toContainText("5m 25s as set"); // 4 × (5 + 10 + 10) + 3 × (5 + 60 + 10): a confirmation lasts at least 60 s
  await form.fill({ "Warm-up": 0 });
  await expect(total).toContainText("4m 50s as set");
});
