// The running app (proxy.ts in front of every route) against hostile requests, and a target whose password
// sits in its URL's query string: the password appears in no page's HTML and no API answer.
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

test("a target whose password is in the query string shows it in no page and no answer", async ({ page, request }) => {
  test.setTimeout(90_000);
  const { password, port } = embeddedServer("target");
  const url = `postgresql://postgres@127.0.0.1:${port}/pgbb_target?sslmode=disable&password=${encodeURIComponent(password)}`;
  const added = await request.post("/api/targets", { headers: SAME_ORIGIN, data: { name: `query-string password ${Date.now()}`, connectionString: url } });
  const addedText = await added.text();
  expect(added.status(), addedText).toBe(201);
  expect(addedText).not.toContain(password);
  expect(addedText).toContain("password=****");
  const targetId = (JSON.parse(addedText) as { target: { id: string } }).target.id;
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
    for (const a of answers) expect(await (await request.get(a)).text(), a).not.toContain(password);
    // The pages as the browser renders them (the run page's reproducing command included).
    for (const p of ["/runs/new", `/runs/${runId}`]) {
      await page.goto(p);
      await page.waitForLoadState("networkidle");
      expect(await page.content(), p).not.toContain(password);
    }
  } finally {
    await request.delete(`/api/targets/${targetId}`, { headers: SAME_ORIGIN });
  }
});
