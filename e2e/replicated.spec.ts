// The embedded replicated target from the browser: "Run this here" on the published three-node pub/sub scenario
// opens the form with the replicated target picked (the app runs its own Postgres, as npm start does), saying why;
// a short run launched from it starts the cluster in the runner, completes, and its page names the target, records
// the cluster's shape and charts the lag of each standby.
import { expect, test } from "@playwright/test";
import { NewRunPage } from "./pages/NewRunPage";
import { RunPage } from "./pages/RunPage";

const SCENARIO = "pubsub-4vcpu-three-node-sync-replicated";
const NAME = "embedded replicated (pg1 + 2 standbys)";

test("Run this here on the three-node pub/sub scenario runs on the embedded replicated target", async ({ page, request }) => {
  // The first run on it starts the cluster (initdb, the standbys' copies), and may queue behind another spec's run.
  test.setTimeout(300_000);
  const targets = (await (await request.get("/api/targets")).json()).targets as { id: string; name: string }[];
  expect(targets.slice(0, 2).map((t) => t.id)).toEqual(["default", "replicated"]);

  await page.goto("/references");
  await page.getByTestId(`run-here-${SCENARIO}`).click();
  await expect(page).toHaveURL(new RegExp(`/runs/new\\?preset=${SCENARIO}$`));
  const form = new NewRunPage(page);
  const picker = page.getByLabel("Run against");
  await expect(picker).toHaveValue("replicated");
  await expect(picker.locator("option:checked")).toHaveText(NAME);
  await expect(page.getByTestId("target-reason")).toContainText("synchronous replication on 3 nodes across zones");
  await expect(page.getByTestId("target-reason")).toContainText("Here the 3 nodes share this one host");
  await expect(page.getByTestId("target-about")).toContainText(
    "A primary (pg1) and 2 standbys (pg2, pg3) on this machine, synchronous_standby_names 'FIRST 1 (pg2, pg3)'",
  );
  // Not refused before it runs: it starts with the run (or, started already, it is checked as any target).
  await expect(form.connections()).toContainText(/Not running yet: it starts with this run|This run opens \d+ connections/);
  await expect(form.fitWarnings()).toContainText("here 3 nodes share one host with no network between them");
  await expect(page.locator("pre.cmd")).toContainText("--replicas 2");

  // The scenario's shape, lighter and short: this machine is shared with the other specs.
  await form.fill({ Writers: 2, "Write limit": 400, "Measured duration": 4, "Warm-up": 0 });
  const id = await form.launch();
  const run = new RunPage(page);
  await run.waitForStatus("completed", 240_000);
  await expect(page.getByTestId("run-page")).toContainText(`target ${NAME}`);
  await expect(page.getByTestId("manifest").locator("tr", { hasText: "replicated target" }).locator("td")).toHaveText(
    "embedded, one host: primary pg1, standbys pg2, pg3; synchronous_standby_names 'FIRST 1 (pg2, pg3)'; no delay between the nodes",
  );
  // Its command reaches the same cluster again, with DATA_DIR as the app runs it.
  await expect(page.getByTestId("cli-command").locator("pre.cmd")).toContainText(/^DATA_DIR=\S+ npm run bench -- pubsub .* --replicas 2$/);
  // Replication telemetry (components/telemetry/ReplicationCharts.tsx): each standby's lag on the run's timeline.
  const lag = page.getByTestId("chart-replication");
  await expect(lag).toContainText("Replication lag per standby");
  await expect(lag).toContainText("synchronous_standby_names 'FIRST 1 (pg2, pg3)'");
  for (const standby of ["pg2", "pg3"]) await expect(lag).toContainText(`${standby} replay`);
  const stored = await (await request.get(`/api/runs/${id}`)).json();
  expect(stored).toMatchObject({ targetId: "replicated", targetLabel: NAME, summary: { manifest: { cluster: { standbys: ["pg2", "pg3"] } } } });
});
