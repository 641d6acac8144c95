// Targets no run can use, as a user meets them on the New run page: the app's own control store database is
// refused when saved, naming why; a read-only database is saved with a warning, and the page says no run can
// use it before anyone launches.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { NewRunPage } from "./pages/NewRunPage";
import { SAME_ORIGIN } from "./same-origin";

test.describe.configure({ mode: "serial" });

function embedded() {
  const password = readFileSync(path.join(process.env.E2E_DATA_DIR!, "pg-password"), "utf8").trim();
  const port = Number(process.env.E2E_PG_PORT ?? 24399);
  // localhost, not the 127.0.0.1 the app uses: the control store is recognised by the server, not by the URL's text.
  const url = (db: string, host = "127.0.0.1") => `postgresql://postgres:${encodeURIComponent(password)}@${host}:${port}/${db}`;
  return { password, url };
}

async function addTarget(page: import("@playwright/test").Page, name: string, url: string) {
  await page.getByRole("button", { name: "Add a target…" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Connection string").fill(url);
  await page.getByRole("button", { name: "Check and save" }).click();
}

test("the app's own control store cannot be saved as a target, whatever the URL says", async ({ page }) => {
  const { password, url } = embedded();
  const form = new NewRunPage(page);
  await form.open();
  await addTarget(page, "own store", url("pgbb_control", "localhost"));
  await expect(page.getByTestId("add-target").getByRole("alert")).toContainText("this is the app's own control store database");
  await expect(page.getByTestId("add-target").getByRole("alert")).not.toContainText(password);
  await expect(page.getByLabel("Run against").locator("option", { hasText: "own store" })).toHaveCount(0);
});

test("a read-only database is saved with a warning, and the form says no run can use it", async ({ page, request }) => {
  const { url } = embedded();
  const admin = new pg.Client({ connectionString: url("postgres") });
  await admin.connect();
  await admin.query("DROP DATABASE IF EXISTS e2e_read_only WITH (FORCE)");
  await admin.query("CREATE DATABASE e2e_read_only");
  await admin.query("ALTER DATABASE e2e_read_only SET default_transaction_read_only = on");
  try {
    const form = new NewRunPage(page);
    await form.open();
    await addTarget(page, "read-only", url("e2e_read_only"));
    await expect(page.getByTestId("target-warning")).toContainText("default_transaction_read_only is on for this database");
    await expect(page.getByTestId("target-warning")).toContainText('ALTER DATABASE "e2e_read_only" SET default_transaction_read_only = off');
    await expect(page.getByLabel("Run against")).toHaveValue(/^t_/);
    await expect(form.connections()).toContainText("No run can use this target: the target is read-only");
    await page.getByRole("button", { name: "Forget this target" }).click();
    await expect(page.getByLabel("Run against")).toHaveValue("default");
  } finally {
    const left = (await (await request.get("/api/targets")).json()).targets.filter((t: { name: string }) => t.name === "read-only");
    for (const t of left) await request.delete(`/api/targets/${t.id}`, { headers: SAME_ORIGIN });
    await admin.query("DROP DATABASE IF EXISTS e2e_read_only WITH (FORCE)");
    await admin.end();
  }
});
