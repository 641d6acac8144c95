import { expect, test } from "@playwright/test";

test("the home page shows the control store, the target and the runner up", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: /Can Postgres carry/ })).toBeVisible();
  for (const part of ["controlStore", "target", "runner"]) {
    await expect(page.getByTestId(`status-${part}`)).toHaveAttribute("data-up", "true");
  }
  await expect(page.getByTestId("status-target")).toContainText("embedded default");
  // The shared navigation is there.
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const name of ["Runs", "New run", "Compare", "References"]) await expect(nav.getByRole("link", { name })).toBeVisible();
});

test("the home page names the five studies (the queue libraries' figures among them) and each one's workloads, from the registry", async ({ page }) => {
  await page.goto("/");
  const studies = page.getByTestId("home-studies");
  await expect(page.getByText(/Run the workloads of 5 published studies/)).toBeVisible();
  const expected: Record<string, string[]> = {
    kozlovski: ["pubsub", "queue"],
    yong: ["cache", "jobqueue", "search", "notify", "mixed"],
    dbos: ["inserts", "workflows", "queued-workflows"],
    vendors: ["graphile-worker"],
    hardbyte: ["pg-boss"],
  };
  for (const [study, kinds] of Object.entries(expected)) {
    const items = studies.locator(`[data-study="${study}"] [data-workload]`);
    await expect(items).toHaveCount(kinds.length);
    for (const kind of kinds) await expect(studies.locator(`[data-study="${study}"] [data-workload="${kind}"]`)).toBeVisible();
  }
  await expect(studies).toContainText("FOR UPDATE SKIP LOCKED");
  await expect(studies).toContainText("LISTENs to a trigger's NOTIFY");
  await expect(studies).toContainText("Workflow queues");
});

test("GET /api/health reports every part up as JSON", async ({ request }) => {
  const r = await request.get("/api/health");
  expect(r.status()).toBe(200);
  const body = await r.json();
  expect(body).toMatchObject({ ok: true, controlStore: { up: true }, target: { up: true }, runner: { up: true } });
});
