// A user configuring, launching, watching, cancelling and browsing runs, against the real app (embedded
// Postgres, the real runner). The tests run in order and share that one runner, so each waits for its
// own run to end (or cancels it) before the next launches, and the runs list test sees their runs.
import { embeddedServer } from "./embedded";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import pg from "pg";
import { NewRunPage } from "./pages/NewRunPage";
import { RunPage } from "./pages/RunPage";
import { RunsListPage } from "./pages/RunsListPage";
import { SAME_ORIGIN } from "./same-origin";

test.describe.configure({ mode: "serial" });

/** Small and quick on 2 cores: 2 writers, 2 partitions, 2 groups (8 connections with set-up and telemetry), 2,000 msg/s. */
const SMALL = { Writers: 2, Partitions: 2, "Consumer groups": 2, "Write limit": 2000, "Warm-up": 2, "Measured duration": 10 };

const ids: { finished?: string; cancelled?: string } = {};

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  for (const [label, width] of [
    ["laptop", 1280],
    ["phone", 390],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300); // let the charts re-measure their width
    await page.screenshot({ path: testInfo.outputPath(`${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("launch a 20-second pub/sub run from the form, watch the charts and numbers move, see it finish verified", async ({ page, request }, testInfo) => {
  const form = new NewRunPage(page);
  await form.open();
  await form.choosePreset("pub/sub: reference tool defaults");
  // 20 s measured: a page slowed by a busy machine (Playwright beside the node tests) saw a 10 s run only once it had
  // ended, in two clean-clone CI runs; the live checks below need it still running.
  await form.fill({ ...SMALL, "Measured duration": 20 });
  await expect(form.derived("readers"), "readers per group follow partitions").toHaveText("2");
  await expect(form.connections()).toContainText("This run opens 8 connections"); // 2 writers + 2 × 2 readers + set-up + telemetry
  const id = await form.launch();
  ids.finished = id;

  const run = new RunPage(page);
  await expect(run.status()).toHaveText(/queued|running/);
  await run.waitForSamples(3);
  await expect(page.getByTestId("progress-label")).toContainText("remaining");
  // On a busy machine the samples can reach the page late enough that the run has ended by either reading of the live
  // table: it has then given way to the finished page, whose numbers are checked below.
  // Its second, the run's time it shows and its write rate, read in one go (the table changes every second).
  const liveRead = () =>
    page
      .getByTestId("live-numbers")
      .evaluate(
        (el: HTMLElement) => ({
          seq: el.dataset.seq ?? "",
          t: Number(/t = (\d+) s/.exec(el.querySelector("caption")?.textContent ?? "")?.[1] ?? Number.NaN),
          writeRate: Number((el.querySelector('[data-testid="live-write-rate"]')?.textContent ?? "").replace(/,/g, "")),
        }),
        undefined,
        { timeout: 5000 },
      )
      .catch(() => null);
  const first = await liveRead();
  const before = { stream: await run.stream(), path: await run.throughputPath() };
  if (first !== null) {
    await run.waitForSamples(before.stream.count + 2);
    expect(await run.throughputPath(), "the throughput line grew").not.toBe(before.path);
  }
  const now = first === null ? null : await liveRead();
  if (now === null) await expect(run.status()).toHaveText(/draining|verifying|completed/);
  else {
    expect(now.seq, "the numbers table moved to a newer second").not.toBe(first?.seq);
    // A second of the load (2 s warm-up and 20 s measured) shows writes; a slow page may first read one of the drain's,
    // after the writers are done (a clean-clone CI run read 0 there).
    if (now.t <= 22) expect(now.writeRate, `the write rate shown at ${now.t} s`).toBeGreaterThan(0);
    else expect(now.writeRate, `the write rate shown at ${now.t} s, in the drain`).toBeGreaterThanOrEqual(0);
    await shoot(page, testInfo, "run-live");
  }

  const live = await run.stream();
  expect(live.dupes).toBe(0);
  expect(live.maxLagMs, "samples arrived live").not.toBeNull();
  // Live, not replayed at the end: the page held three samples while its progress still read "remaining" (above),
  // and no sample that came over the open stream was older than the run is long (22 s: 2 s warm-up, 20 s measured).
  // How soon a sample arrives, under how many viewers, is a figure of `npm run bench:viewers`, not a check here: a
  // clean-clone CI, Playwright beside the node tests on 2 cores, once measured a sample more than 5 s late.
  expect(live.maxLagMs!, "no sample reaches the browser later than the run lasts").toBeLessThan(22_000);

  await run.waitForStatus("completed", 60_000);
  await expect(run.verification()).toHaveAttribute("data-ok", "true");
  await expect(run.verification()).toContainText("Verification passed");
  expect(Number((await page.getByTestId("kpi-write").textContent())!.replace(/,/g, ""))).toBeGreaterThan(0);
  const latency = page.getByTestId("latency-table");
  for (const m of ["write", "read", "end-to-end"]) await expect(latency.getByRole("rowheader", { name: m, exact: true })).toBeVisible();
  // Server settings: those not at Postgres's default only; this server changes none that matters for performance
  // (shared_buffers is initdb's 128MB, the default), and the rest (port, locale…) is folded.
  await expect(page.getByTestId("settings-performance")).toContainText("at its default");
  await expect(page.getByTestId("settings-other")).toContainText("port");
  await expect(page.getByTestId("settings-other")).not.toHaveAttribute("open");
  await expect(page.getByTestId("manifest")).not.toContainText("shared_buffers");
  await expect(page.getByTestId("manifest")).toContainText("Postgres");
  // The app runs on its own data folder and port (playwright.config.ts), so the command carries them to
  // reach the same embedded Postgres (runner/cli.test.ts runs such a command).
  await expect(page.getByTestId("cli-command").locator("pre")).toHaveText(
    `DATA_DIR=${process.env.E2E_DATA_DIR} EMBEDDED_TARGET_PG_PORT=${embeddedServer("target").port} ` +
      "npm run bench -- pubsub -writers 2 -readers 2 -consumer-groups 2 -partitions 2 -write-batch 100 -read-batch 100 -payload 1024 -duration 20s -throttle_writes 2000 -report 5s --warmup 2s",
  );
  await expect(page.getByTestId("cli-command")).toContainText("The app runs with its own DATA_DIR and EMBEDDED_TARGET_PG_PORT");
  await expect(page.getByTestId("phase-steps")).toHaveAttribute("data-phase", "done");
  await shoot(page, testInfo, "run-finished");

  // The downloads hold the same run: the summary's config, and one CSV row per sample on the chart.
  const summary = await request.get(`/api/runs/${id}/summary`);
  expect(summary.headers()["content-disposition"]).toContain("attachment");
  expect((await summary.json()).config).toMatchObject({ kind: "pubsub", writers: 2, partitions: 2, consumerGroups: 2 });
  const csv = (await (await request.get(`/api/runs/${id}/samples.csv`)).text()).trim().split("\n");
  expect(csv[0]).toMatch(/^seq,time,phase,elapsed_s,/);
  expect(csv.length - 1).toBe((await run.stream()).count);
});

test("cancel a running run", async ({ page }) => {
  const form = new NewRunPage(page);
  await form.open();
  await form.fill({ ...SMALL, "Consumer groups": 1, "Measured duration": 120 });
  ids.cancelled = await form.launch();
  const run = new RunPage(page);
  await run.waitForSamples(2);
  await run.cancel();
  await run.waitForStatus("cancelled", 20_000);
  await expect(page.getByTestId("run-error")).toContainText("Cancelled on request.");
  await expect(page.getByRole("button", { name: "Cancel run" })).toHaveCount(0);
  await expect(run.status()).toHaveText("cancelled");
});

test("a bad field gets its message beside it, from the same schema as the API", async ({ page, request }) => {
  const form = new NewRunPage(page);
  await form.open();
  await form.fill({ Writers: 0 });
  await expect(form.field("Writers")).toHaveAttribute("aria-invalid", "true");
  await expect(form.field("Writers")).toHaveAccessibleDescription("Writers must be at least 1");
  await form.fill({ "Write limit": 50 });
  await expect(form.field("Write limit")).toHaveAccessibleDescription(/^Write limit \(50 msg\/s\) is below Write batch \(100 msgs\)/);

  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page.getByTestId("form-error")).toContainText("Fix the 2 fields marked in red");
  await expect(page).toHaveURL(/\/runs\/new$/);
  await expect(form.field("Writers")).toBeFocused();

  await form.fill({ Writers: 3, "Write limit": 2000 });
  await expect(form.field("Writers")).not.toHaveAttribute("aria-invalid", "true");
  await expect(form.field("Writers")).toHaveAccessibleDescription(/one connection each/);

  // The API answers the same input with 400 and the same words.
  const bad = await request.post("/api/runs", { headers: SAME_ORIGIN, data: { config: { kind: "pubsub", writers: 0 } } });
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toEqual({ error: "invalid config", fields: { writers: "Writers must be at least 1" } });
  const notJson = await request.post("/api/runs", { headers: { ...SAME_ORIGIN, "content-type": "application/json" }, data: Buffer.from("writers=0") });
  expect(notJson.status()).toBe(400);
  expect((await notJson.json()).error).toMatch(/not valid JSON/);
  const noTarget = await request.post("/api/runs", { headers: SAME_ORIGIN, data: { config: { kind: "queue" }, targetId: "t_missing" } });
  expect(noTarget.status()).toBe(400);
  expect((await noTarget.json()).fields.targetId).toContain('target "t_missing" does not exist');
});

test("reloading mid-run keeps one continuous chart: no gap, no duplicate", async ({ page, request }) => {
  const form = new NewRunPage(page);
  await form.open();
  // 20 s: long enough that the reload lands mid-run even when the 2 cores are busy with the load itself.
  await form.fill({ ...SMALL, "Consumer groups": 1, "Warm-up": 1, "Measured duration": 20 });
  const id = await form.launch();
  const run = new RunPage(page);
  await run.waitForSamples(3);
  const beforeReload = await run.stream();

  await page.reload();
  const rendered = await run.stream();
  expect(rendered.count, "the reloaded page starts with every sample so far").toBeGreaterThanOrEqual(beforeReload.count);
  await expect(page.getByTestId("run-page"), "still running after the reload").toHaveAttribute("data-status", "running");
  await run.waitForSamples(rendered.count + 2);
  const after = await run.stream();
  expect(after.first).toBe(0);
  expect(after.missing, "seqs missing from the chart").toBe("");
  expect(after.count, "seqs 0..last with none missing").toBe(after.last! - after.first! + 1);
  expect(after.dupes).toBe(0);

  await run.waitForStatus("completed", 60_000);
  const done = await run.stream();
  const csvRows = (await (await request.get(`/api/runs/${id}/samples.csv`)).text()).trim().split("\n").length - 1;
  expect(done.missing, "seqs missing from the chart").toBe("");
  expect(done.count, "the chart holds exactly the stored samples").toBe(csvRows);
  expect(done.count).toBe(done.last! + 1);
  expect(done.dupes).toBe(0);
});

test("a run that does not exist is a clean 404, in the page and in the API", async ({ page, request }) => {
  const res = await page.goto("/runs/r_000000000000");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  const api = await request.get("/api/runs/r_000000000000");
  expect(api.status()).toBe(404);
  expect((await api.json()).error).toContain("does not exist");
});

test("the runs list shows every run, filters and sorts in the URL, and selects runs to compare", async ({ page }) => {
  expect(ids.finished && ids.cancelled, "earlier tests made runs").toBeTruthy();
  const list = new RunsListPage(page);
  await list.open();
  await expect(list.row(ids.finished!)).toContainText("completed");
  await expect(list.row(ids.finished!)).toContainText("2 writers · 2 partitions · 2 consumer groups of 2 readers");
  await expect(list.row(ids.finished!)).toContainText("embedded default");
  await expect(list.row(ids.cancelled!)).toContainText("cancelled");

  await list.filterStatus("cancelled");
  await expect(page).toHaveURL(/status=cancelled/);
  await expect(list.row(ids.finished!)).toHaveCount(0);
  await expect(list.row(ids.cancelled!)).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Filter by status")).toHaveValue("cancelled");
  await list.filterStatus("");
  await list.filterWorkload("queue");
  await expect(page).toHaveURL(/workload=queue/);
  // Other spec files may have stored queue runs: only queue runs remain, none of this file's pubsub runs.
  await expect(list.row(ids.finished!)).toHaveCount(0);
  await expect(list.row(ids.cancelled!)).toHaveCount(0);
  await expect(list.rows().and(page.locator('[data-workload="pubsub"]'))).toHaveCount(0);
  await list.filterStatus("interrupted");
  await list.filterWorkload("pubsub");
  await expect(page.getByText("No run matches these filters.")).toBeVisible();
  await list.filterStatus("");
  // Only pub/sub runs (other spec files store runs of other workloads): the headline columns take the names of
  // what they all measure.
  await list.filterWorkload("pubsub");
  await list.sortBy("Write msg/s");
  await expect(page.getByRole("columnheader", { name: /Write msg\/s/ })).toHaveAttribute("aria-sort", "descending");
  await expect(list.rows().first()).toHaveAttribute("data-status", "completed");

  await list.select(ids.finished!);
  await list.select(ids.cancelled!);
  await expect(page.getByTestId("compare-selected")).toHaveAttribute("href", `/compare?ids=${ids.finished},${ids.cancelled}`);
});

test("run again repeats a run's config; delete removes a run", async ({ page, request }) => {
  const run = new RunPage(page);
  await run.open(ids.finished!);
  await page.getByRole("button", { name: "Run again" }).click();
  await page.waitForURL((u) => /\/runs\/r_[0-9a-f]+$/.test(u.pathname) && !u.pathname.endsWith(ids.finished!));
  const againId = new URL(page.url()).pathname.split("/").pop()!;
  const again = await (await request.get(`/api/runs/${againId}`)).json();
  const original = await (await request.get(`/api/runs/${ids.finished}`)).json();
  expect(again.config).toEqual(original.config);
  await run.cancel();
  await run.waitForStatus("cancelled", 20_000);

  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Yes, delete" }).click();
  await page.waitForURL(/\/runs$/);
  await expect(new RunsListPage(page).row(againId)).toHaveCount(0);
  expect((await request.get(`/api/runs/${againId}`)).status()).toBe(404);
});

/** An admin connection to the e2e app's default target's own embedded server (e2e/embedded.ts). */
async function embeddedAdmin() {
  const { password, port } = embeddedServer("target");
  const base = (user: string, pw: string, db: string) => `postgresql://${user}:${encodeURIComponent(pw)}@127.0.0.1:${port}/${db}`;
  const client = new pg.Client({ connectionString: base("postgres", password, "postgres") });
  await client.connect();
  return { client, password, port, url: base };
}

test("targets: add by connection string (password kept on the server, shown masked); an unreachable target is refused at launch, in words", async ({
  page,
  request,
}) => {
  const { client: admin, password, port, url: urlOf } = await embeddedAdmin();
  await admin.query("DROP DATABASE IF EXISTS e2e_second_target");
  await admin.query("CREATE DATABASE e2e_second_target");
  const url = urlOf("postgres", password, "e2e_second_target");

  try {
    const form = new NewRunPage(page);
    await form.open();
    await page.getByRole("button", { name: "Add a target…" }).click();
    await page.getByLabel("Connection string").fill("mysql://nope@localhost/db");
    await page.getByRole("button", { name: "Check and save" }).click();
    await expect(page.getByTestId("add-target")).toContainText('has scheme "mysql"');
    await page.getByLabel("Connection string").fill(`postgresql://postgres:${password}@127.0.0.1:1/x`);
    await page.getByRole("button", { name: "Check and save" }).click();
    await expect(page.getByTestId("add-target")).toContainText("connection refused");
    await expect(page.getByTestId("add-target").getByRole("alert")).not.toContainText(password);

    await page.getByLabel("Name", { exact: true }).fill("second");
    await page.getByLabel("Connection string").fill(url);
    await page.getByRole("button", { name: "Check and save" }).click();
    await expect(page.getByLabel("Run against")).toHaveValue(/^t_/);
    await expect(page.getByTestId("target-url")).toHaveText(`postgresql://postgres:****@127.0.0.1:${port}/e2e_second_target`);
    await expect(form.connections()).toContainText("This run opens");
    expect(await page.content()).not.toContain(password);
    expect(await (await request.get("/api/targets")).text()).not.toContain(password);

    // The target goes away; launching against it is refused at once with the cause beside the target.
    await admin.query("DROP DATABASE e2e_second_target WITH (FORCE)");
    await form.fill({ Writers: 1, Partitions: 1, "Measured duration": 5 });
    await page.getByRole("button", { name: "Launch run" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "database does not exist" }).first()).toBeVisible();
    await expect(page).toHaveURL(/\/runs\/new$/);

    await page.getByRole("button", { name: "Forget this target" }).click();
    await expect(page.getByLabel("Run against")).toHaveValue("default");
  } finally {
    await admin.query("DROP DATABASE IF EXISTS e2e_second_target WITH (FORCE)");
    await admin.end();
  }
});

test("a run that fails says why, in words", async ({ page, request }) => {
  // A role that may connect but not create the run's schema: the runner fails at setup, for a real reason.
  const { client: admin, port, url: urlOf } = await embeddedAdmin();
  await admin.query("DROP DATABASE IF EXISTS e2e_no_create");
  await admin.query("DROP ROLE IF EXISTS e2e_limited");
  await admin.query("CREATE ROLE e2e_limited LOGIN PASSWORD 'limited-pw'");
  await admin.query("CREATE DATABASE e2e_no_create");
  let targetId: string | undefined;
  try {
    const added = await request.post("/api/targets", {
      headers: SAME_ORIGIN,
      data: { name: "limited role", connectionString: urlOf("e2e_limited", "limited-pw", "e2e_no_create") },
    });
    expect(added.status()).toBe(201);
    targetId = (await added.json()).target.id;

    const form = new NewRunPage(page);
    await form.open();
    await page.getByLabel("Run against").selectOption({ label: "limited role" });
    await expect(page.getByTestId("target-url")).toHaveText(`postgresql://e2e_limited:****@127.0.0.1:${port}/e2e_no_create`);
    await form.fill({ Writers: 1, Partitions: 1, "Warm-up": 0, "Measured duration": 5 });
    const id = await form.launch();
    const run = new RunPage(page);
    await run.waitForStatus("failed", 30_000);
    await expect(page.getByTestId("run-error")).toContainText("This run failed.");
    await expect(page.getByTestId("run-error")).toContainText("permission denied");
    expect((await (await request.get(`/api/runs/${id}`)).json()).error).toContain("permission denied");
  } finally {
    if (targetId) await request.delete(`/api/targets/${targetId}`, { headers: SAME_ORIGIN });
    await admin.query("DROP DATABASE IF EXISTS e2e_no_create WITH (FORCE)");
    await admin.query("DROP ROLE IF EXISTS e2e_limited");
    await admin.end();
  }
});
