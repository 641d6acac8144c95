// Targets saved with awkward passwords (equal to a word of the URL, holding spaces, @, %, quotes, non-ASCII), read
// on every page that shows a target: the New run form (its target panel and reproducing command), the launch's
// run page (its reproducing command) and the targets API. The URL reads as typed with **** in the password's
// place only; the password is nowhere, and no mask sits inside a word (****ql://, u_****:).
import { expect, test } from "@playwright/test";
import pg from "pg";
import { embeddedServer } from "./embedded";
import { SAME_ORIGIN } from "./same-origin";

test.describe.configure({ mode: "serial" });

const tag = `${process.pid}`;
const CASES: { role: string; password: string; isAWord: boolean }[] = [
  { role: `e2e_pg_${tag}`, password: "postgres", isAWord: true },
  { role: `e2e_pass_${tag}`, password: "pass", isAWord: true },
  { role: `e2e_sp_${tag}`, password: "my secret pw", isAWord: false },
  { role: `e2e_at_${tag}`, password: "Ab@cd 100% it's", isAWord: false },
  { role: `e2e_na_${tag}`, password: "Pässwörd ✓", isAWord: false },
];

// Read once the app has started its servers (not when the file loads: `playwright test --list` starts none).
let target: ReturnType<typeof embeddedServer>;
const urlOf = (c: (typeof CASES)[number]) => `postgresql://${c.role}:${c.password}@127.0.0.1:${target.port}/pgbb_target`;
const maskedOf = (c: (typeof CASES)[number]) => `postgresql://${c.role}:****@127.0.0.1:${target.port}/pgbb_target`;

function assertHidden(where: string, text: string, c: (typeof CASES)[number]) {
  expect(text, `${where}: masked in place`).toContain(maskedOf(c));
  expect(text, `${where}: the password in place`).not.toContain(`:${c.password}@`);
  if (!c.isAWord) expect(text, `${where}: the password`).not.toContain(c.password);
  expect(text, `${where}: a mask inside a word`).not.toMatch(/\w\*\*\*\*|\*\*\*\*\w/);
}

let admin: pg.Client;
const ids = new Map<string, string>();

test.beforeAll(async () => {
  target = embeddedServer("target");
  admin = new pg.Client({ connectionString: target.url("pgbb_target") });
  await admin.connect();
  for (const c of CASES) {
    await admin.query(`DROP ROLE IF EXISTS ${c.role}`);
    await admin.query(`CREATE ROLE ${c.role} LOGIN PASSWORD ${admin.escapeLiteral(c.password)}`);
    await admin.query(`GRANT CREATE ON DATABASE pgbb_target TO ${c.role}`);
  }
});

test.afterAll(async ({ request }) => {
  for (const id of ids.values()) await request.delete(`/api/targets/${id}`, { headers: SAME_ORIGIN });
  for (const c of CASES) {
    await admin.query(`DROP OWNED BY ${c.role} CASCADE`).catch(() => undefined);
    await admin.query(`DROP ROLE IF EXISTS ${c.role}`).catch(() => undefined);
  }
  await admin.end();
});

test("saved with such passwords, each target reads masked in place in the API and on the New run page", async ({ page, request }) => {
  for (const c of CASES) {
    const res = await request.post("/api/targets", { headers: SAME_ORIGIN, data: { name: `secret ${c.role}`, connectionString: urlOf(c) } });
    const text = await res.text();
    expect(res.status(), text).toBe(201);
    assertHidden("POST /api/targets", text, c);
    ids.set(c.role, JSON.parse(text).target.id);
  }
  const listed = await (await request.get("/api/targets")).text();
  for (const c of CASES) assertHidden("GET /api/targets", listed, c);
  for (const c of CASES) {
    const info = await (await request.get(`/api/targets/${ids.get(c.role)}/info`)).text();
    expect(info).not.toContain(`:${c.password}@`);
    if (!c.isAWord) expect(info).not.toContain(c.password);
  }

  await page.goto("/runs/new");
  for (const c of CASES) {
    await page.getByLabel("Run against").selectOption(ids.get(c.role)!);
    await expect(page.locator("main")).toContainText(maskedOf(c));
    assertHidden("the New run page", (await page.locator("main").textContent()) ?? "", c);
  }
});

test("a run against such a target shows its reproducing command masked, quoted for the shell", async ({ page, request }) => {
  const c = CASES.find((x) => x.password === "my secret pw")!;
  const launched = await request.post("/api/runs", {
    headers: SAME_ORIGIN,
    data: { config: { kind: "queue", writers: 1, readers: 1, durationSeconds: 2, warmupSeconds: 0 }, targetId: ids.get(c.role) },
  });
  const text = await launched.text();
  expect(launched.status(), text).toBe(201);
  await page.goto(`/runs/${JSON.parse(text).id}`);
  await expect(page.locator("main")).toContainText(`--target '${maskedOf(c)}'`, { timeout: 60_000 });
  assertHidden("the run page", (await page.locator("main").textContent()) ?? "", c);
  await expect(page.locator("main")).toContainText(/type the target.s password in its place, inside the quotes/);
});
