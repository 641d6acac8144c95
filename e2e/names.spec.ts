// Runs you can name and find (issue 33): a run named and tagged from the New run form, its name, tags and notes
// edited on its page, the runs list filtered by tag, by a search of names and notes and by workload, a run's name in
// a comparison, and the runs of a filter deleted after a confirmation that says how many.
import { type APIRequestContext, expect, test } from "@playwright/test";
import { NewRunPage } from "./pages/NewRunPage";
import { RunPage } from "./pages/RunPage";
import { RunsListPage } from "./pages/RunsListPage";
import { SAME_ORIGIN } from "./same-origin";

test.describe.configure({ mode: "serial" });

// A tag no other spec file uses: the list's other runs (other files share the app) never match it.
const TAG = "names-e2e";
const ids: { form?: string; other?: string; untagged?: string } = {};

/** Launches a run through the API and waits for its end; returns its id. */
async function finishedRun(request: APIRequestContext, body: object): Promise<string> {
  const res = await request.post("/api/runs", { headers: SAME_ORIGIN, data: body });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${id}`)).json()) as { status: string }).status, { timeout: 90_000, intervals: [500] })
    .toBe("completed");
  return id;
}

test("name and tag a run from the New run form; a bad tag is refused beside the field", async ({ page }) => {
  test.setTimeout(120_000);
  const form = new NewRunPage(page);
  await form.open();
  await form.chooseWorkload("queue");
  await form.fill({ Writers: 1, Readers: 1, "Warm-up": 0, "Measured duration": 2 });
  // "Run name": the target panel has a Name field of its own (a new target's).
  const name = page.getByLabel("Run name");
  const tags = page.locator("#f-run-tags");
  await name.fill("WAL baseline");
  await tags.fill("pg18 bad!tag");
  await expect(page.locator("#f-run-tags-msg")).toHaveText(/tag "bad!tag" has a character other than letters, digits and - _ \. :/);
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page).toHaveURL(/\/runs\/new/); // not launched while a tag is bad
  await tags.fill(`pg18, ${TAG}`);
  ids.form = await form.launch();

  const run = new RunPage(page);
  await expect(page.getByTestId("run-title")).toContainText("WAL baseline");
  await expect(page.getByTestId("run-title")).toContainText(ids.form);
  await expect(page.getByTestId("tag")).toHaveText(["pg18", TAG]);
  await run.waitForStatus("completed", 90_000);
});

test("edit a run's name, tags and notes on its page; a refused name shows its message beside the field", async ({ page, request }) => {
  expect(ids.form, "the form's run").toBeTruthy();
  const run = new RunPage(page);
  await run.open(ids.form!);
  await page.getByTestId("edit-labels").click();
  const edit = page.getByRole("form", { name: "Name, tags and notes" });
  await edit.getByLabel("Name").fill("n".repeat(121));
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit.locator("#l-name-msg")).toHaveText("name is 121 characters long; shorten it to 120 or fewer");

  await edit.getByLabel("Name").fill("WAL baseline, pg18");
  await edit.getByLabel("Tags (commas or spaces)").fill(`${TAG} wal:on`);
  await edit.getByLabel("Notes").fill("Vacuum ran just before.\nSecond line.");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toHaveCount(0);
  await expect(page.getByTestId("run-title")).toContainText("WAL baseline, pg18");
  await expect(page.getByTestId("tag")).toHaveText([TAG, "wal:on"]);
  await expect(page.getByTestId("notes")).toHaveText("Vacuum ran just before.\nSecond line.");

  // Stored: a reload and the API say the same.
  await page.reload();
  await expect(page.getByTestId("run-title")).toContainText("WAL baseline, pg18");
  const stored = (await (await request.get(`/api/runs/${ids.form}`)).json()) as { name: string; notes: string; tags: string[] };
  expect([stored.name, stored.notes, stored.tags]).toEqual(["WAL baseline, pg18", "Vacuum ran just before.\nSecond line.", [TAG, "wal:on"]]);
});

test("filter the runs list by tag, by a search of names and notes, and by workload, kept in the address", async ({ page, request }) => {
  test.setTimeout(180_000);
  ids.other = await finishedRun(request, {
    config: { kind: "pubsub", writers: 1, partitions: 1, consumerGroups: 1, warmupSeconds: 0, durationSeconds: 2 },
    name: "pub/sub side run",
    tags: [TAG],
  });
  ids.untagged = await finishedRun(request, {
    config: { kind: "queue", writers: 1, readers: 1, warmupSeconds: 0, durationSeconds: 2 },
    notes: "vacuum, but no tag",
  });

  const list = new RunsListPage(page);
  await list.open();
  await expect(list.row(ids.form!)).toContainText("WAL baseline, pg18");
  await expect(list.row(ids.form!)).toContainText(ids.form!);
  // A tag in a row filters the list by it; the Tag filter says so.
  await list.row(ids.other).getByRole("button", { name: TAG }).click();
  await expect(page).toHaveURL(new RegExp(`tag=${TAG}`));
  await expect(page.getByLabel("Filter by tag")).toHaveValue(TAG);
  await expect(list.rows()).toHaveCount(2);
  await expect(list.row(ids.untagged)).toHaveCount(0);
  await page.getByLabel("Filter by tag").selectOption("");
  await expect(list.row(ids.untagged)).toBeVisible();
  await page.getByLabel("Filter by tag").selectOption(TAG);
  await expect(list.rows()).toHaveCount(2);

  // The search looks in names and notes, any case: "VACUUM" is in the form run's notes and the untagged run's.
  await page.getByLabel("Filter by tag").selectOption("");
  await page.getByLabel("Search names and notes").fill("VACUUM");
  await expect(page).toHaveURL(/q=VACUUM/);
  await expect(list.row(ids.form!)).toBeVisible();
  await expect(list.row(ids.untagged)).toBeVisible();
  await expect(list.row(ids.other)).toHaveCount(0);

  await page.getByLabel("Filter by workload").selectOption("pubsub");
  await page.getByLabel("Search names and notes").fill("side run");
  await expect(page).toHaveURL(/workload=pubsub.*q=side\+run/);
  await expect(list.rows()).toHaveCount(1);
  await expect(list.row(ids.other)).toBeVisible();
  // Reloaded, the address gives the same filter.
  await page.reload();
  await expect(page.getByLabel("Filter by workload")).toHaveValue("pubsub");
  await expect(page.getByLabel("Search names and notes")).toHaveValue("side run");
  await expect(list.rows()).toHaveCount(1);
});

test("a comparison calls a named run by its name, its id beside it", async ({ page }) => {
  await page.goto(`/compare?ids=${ids.form},${ids.untagged}`);
  const named = page.locator(".item-name").filter({ hasText: "WAL baseline, pg18" }).first();
  await expect(named).toBeVisible();
  await expect(named.locator(".item-id")).toHaveText(ids.form!);
  // A run without a name keeps its id as its name.
  await expect(page.locator(".item-name").filter({ hasText: ids.untagged! }).first()).toBeVisible();
});

test("delete the runs of a filter after a confirmation that says how many; the others stay", async ({ page, request }) => {
  const list = new RunsListPage(page);
  await list.open(`?tag=${TAG}`);
  await expect(list.rows()).toHaveCount(2);
  await page.getByTestId("delete-matching").click();
  const confirm = page.getByTestId("confirm-delete");
  await expect(confirm).toContainText("Delete 2 runs and their samples?");
  await confirm.getByRole("button", { name: "Yes, delete 2 runs" }).click();
  await expect(page.getByTestId("delete-outcome")).toHaveText("Deleted 2 runs and their samples.");
  await expect(page.getByText("No run matches these filters.")).toBeVisible();
  for (const id of [ids.form, ids.other]) expect((await request.get(`/api/runs/${id}`)).status()).toBe(404);
  expect((await request.get(`/api/runs/${ids.untagged}`)).status()).toBe(200);
});
