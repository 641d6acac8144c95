// The running app (proxy.ts in front of every route) against hostile requests, and a target whose password
// sits in its URL's query string, under a key spelled in any way the driver reads: the password appears in no
// page's HTML and no API answer.
import { embeddedServer } from "./embedded";
import { expect, test } from "@playwright/test";
import { SAME_ORIGIN } from "./same-origin";

test("a cross-site page cannot change data, a foreign Host gets no answer, a NUL id is a 400", async ({ request }) => {
  const before = ((await (await request.get("/api/targets")).json()).targets as unknown[]).length;
  const crossSite = { origin: "http://evil.example", "content-type": "text/plain" };
  for (const [url, data] of [
    ["/api/runs", JSON.stringify({ config: { kind: "queue" } })],
    ["/api/targets", JSON.stringify({ connectionString: "postgresql://u@evil.example/db" })],
    ["/api/runs/r_000000000000/cancel", ""],
  ] as const) {
    const res = await request.post(url, { headers: crossSite, data });
    expect(res.status(), url).toBe(403);
    expect((await res.json()).fields.origin).toMatch(/evil\.example/);
  }
  // No Origin at all (a script that did not say where it comes from) is refused too, with what to send.
  const bare = await request.post("/api/runs", { data: { config: { kind: "queue" } } });
  expect(bare.status()).toBe(403);
  expect((await bare.json()).error).toMatch(/needs an Origin header/);
  expect(((await (await request.get("/api/targets")).json()).targets as unknown[]).length).toBe(before);

  // DNS rebinding: the page's own name in Host is not one this server was started for.
  for (const url of ["/api/runs", "/runs", "/api/targets"]) {
    const res = await request.get(url, { headers: { host: "evil.example:3000" } });
    expect(res.status(), url).toBe(421);
    expect((await res.json()).fields.host).toMatch(/evil\.example/);
  }

  for (const url of ["/api/runs/%00", "/api/runs/%00/summary", "/api/targets/%00/info", "/api/imports/%00"]) {
    const res = await request.get(url);
    expect(res.status(), url).toBe(400);
    expect((await res.json()).error).toMatch(/is not a valid id/);
  }
  const del = await request.delete("/api/targets/%00", { headers: SAME_ORIGIN });
  expect(del.status()).toBe(400);
});

test("an id whose %-escapes are not UTF-8 is a 400 naming it, on the API and on pages", async ({ page, request }) => {
  for (const url of ["/api/runs/c_%ff", "/api/runs/%ED%A0%80/summary", "/api/ceilings/c_%ff", "/api/targets/%ff/info"]) {
    const res = await request.get(url);
    expect(res.status(), url).toBe(400);
    expect((await res.json()).error, url).toMatch(/id ".*%.*" is not a valid id: its %-escapes are not UTF-8 text/);
  }
  const cancel = await request.post("/api/runs/c_%ff/cancel", { headers: SAME_ORIGIN });
  expect(cancel.status()).toBe(400);
  for (const [url, id] of [
    ["/runs/c_%ff", "c_%ff"],
    ["/ceilings/%ED%A0%80", "%ED%A0%80"],
  ]) {
    const res = await page.goto(url);
    expect(res?.status(), url).toBe(400);
    await expect(page.getByRole("heading", { name: "This address cannot be read" })).toBeVisible();
    await expect(page.getByText(`"${id}" is not a valid id`)).toBeVisible();
  }
});

test("a target whose password is in the query string shows it in no page and no answer", async ({ page, request }) => {
  test.setTimeout(90_000);
  const { password, port } = embeddedServer("target");
  // The driver reads the last of duplicated keys and decodes an encoded one (pass%77ord is password).
  const decoys = ["E2e-Decoy-Cased-1", "E2e-Decoy-Dup-2"];
  const url = `postgresql://postgres@127.0.0.1:${port}/pgbb_target?sslmode=disable&PASSWORD=${decoys[0]}&password=${decoys[1]}&pass%77ord=${encodeURIComponent(password)}`;
  const added = await request.post("/api/targets", { headers: SAME_ORIGIN, data: { name: `query-string password ${Date.now()}`, connectionString: url } });
  const addedText = await added.text();
  expect(added.status(), addedText).toBe(201);
  expect(addedText).not.toContain(password);
  expect(addedText).toContain("pass%77ord=****");
  const targetId = (JSON.parse(addedText) as { target: { id: string } }).target.id;
  const secrets = [password, encodeURIComponent(password), ...decoys];
  try {
    const launched = await request.post("/api/runs", {
      headers: SAME_ORIGIN,
      data: { targetId, config: { kind: "queue", writers: 1, readers: 1, warmupSeconds: 0, durationSeconds: 1 } },
    });
    expect(launched.status(), await launched.text()).toBe(201);
    const runId = (await launched.json()).id as string;
    await expect.poll(async () => (await (await request.get(`/api/runs/${runId}`)).json()).status, { timeout: 60_000 }).toMatch(/completed|failed/);

    const answers = [
      "/api/targets",
      `/api/targets/${targetId}/info`,
      `/api/runs/${runId}?histograms=1`,
      "/api/runs",
      `/api/runs/${runId}/summary`,
      `/api/runs/${runId}/samples.csv`,
      `/api/compare?ids=${runId}&format=md`,
      "/runs/new",
      `/runs/${runId}`,
      "/runs",
    ];
    for (const a of answers) {
      const text = await (await request.get(a)).text();
      for (const s of secrets) expect(text, a).not.toContain(s);
    }
    // The pages as the browser renders them (the run page's reproducing command included).
    for (const p of ["/runs/new", `/runs/${runId}`]) {
      await page.goto(p);
      await page.waitForLoadState("networkidle");
      const html = await page.content();
      for (const s of secrets) expect(html, p).not.toContain(s);
    }
  } finally {
    await request.delete(`/api/targets/${targetId}`, { headers: SAME_ORIGIN });
  }
});
