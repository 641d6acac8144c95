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

test("GET /api/health reports every part up as JSON", async ({ request }) => {
  const r = await request.get("/api/health");
  expect(r.status()).toBe(200);
  const body = await r.json();
  expect(body).toMatchObject({ ok: true, controlStore: { up: true }, target: { up: true }, runner: { up: true } });
});
