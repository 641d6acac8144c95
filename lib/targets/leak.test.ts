// A password given in any form libpq accepts (user-info, ?password=, ?sslpassword=, key=value) must show up in
// no API answer, refusal, export, stored import, log line or CLI line. Real handlers, a real Postgres and a
// real CLI run; every console line written meanwhile is captured and searched too. The forms include what the
// driver reads whatever the text's spelling: a percent-encoded key (?pass%77ord=), duplicated and oddly cased
// keys, and a password with an unencoded @ (the driver reads up to the last @).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { POST as postImport } from "../../app/api/imports/route";
import { GET as getImport } from "../../app/api/imports/[id]/route";
import { GET as getRunRoute } from "../../app/api/runs/[id]/route";
import { GET as getSamples } from "../../app/api/runs/[id]/samples.csv/route";
import { GET as getSummary } from "../../app/api/runs/[id]/summary/route";
import { GET as listRunsRoute, POST as postRun } from "../../app/api/runs/route";
import { GET as getInfo } from "../../app/api/targets/[id]/info/route";
import { GET as listTargetsRoute, POST as postTarget } from "../../app/api/targets/route";
import { GET as compareRoute } from "../../app/api/compare/route";
import { main as cli } from "../../runner/cli";
import { prisma } from "../db";
import { toCliCommand } from "../runs/cli-command";
import { captureConsole, testControlStore, testDatabase } from "../testing";
import { WorkloadConfig } from "../workloads/config";
import { defaultTargetForCli } from "./default-target";
import { listTargets, resolveTarget } from "./store";

let ctl: Awaited<ReturnType<typeof testControlStore>>;
let target: Awaited<ReturnType<typeof testDatabase>>;
const role = `pgbb_leak_${process.pid}`;
const atRole = `pgbb_leak_at_${process.pid}`;
const SECRET = "Leak-Pw-7c1e";
const SSL_SECRET = "Leak-Ssl-93ab";
// Values under keys the driver does not end up using (an earlier duplicate, PASSWORD): still not to be shown.
const DECOYS = ["Leak-Decoy-One-41", "Leak-Decoy-Two-42", "Leak-Decoy-Case-43"];
// The driver reads "Part1@LeakTail-5d2f" as the password (unencoded @); today's text shape hid only "Part1".
const AT_SECRET = "Part1@LeakTail-5d2f";
// An sslkey file (a secret's location): the driver fails to read it and its error names it.
const KEY_PATH = `/tmp/pgbb-Leak-Key-Path-${process.pid}/client.key`;
let forms: Record<string, string>;
let logged: ReturnType<typeof captureConsole>;

before(async () => {
  ctl = await testControlStore("leak_ctl");
  target = await testDatabase("leak_tgt");
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${SECRET}'`);
  const u0 = new URL(target.url);
  await admin.query(`GRANT CREATE ON DATABASE ${u0.pathname.slice(1)} TO ${role}`);
  await admin.query(`CREATE ROLE ${atRole} LOGIN PASSWORD '${AT_SECRET}'`);
  await admin.query(`GRANT CREATE ON DATABASE ${u0.pathname.slice(1)} TO ${atRole}`);
  await admin.end();
  const u = new URL(target.url);
  const db = u.pathname.slice(1);
  const hostPort = `${u.hostname}:${u.port}`;
  forms = {
    userinfo: `postgresql://${role}:${SECRET}@${hostPort}/${db}`,
    query: `postgresql://${role}@${hostPort}/${db}?password=${SECRET}`,
    sslpassword: `postgresql://${role}@${hostPort}/${db}?sslpassword=${SSL_SECRET}&password=${SECRET}`,
    encodedKey: `postgresql://${role}@${hostPort}/${db}?pass%77ord=${SECRET}&ssl%70assword=${SSL_SECRET}`,
    duplicated: `postgresql://${role}@${hostPort}/${db}?PASSWORD=${DECOYS[0]}&password=${DECOYS[1]}&Password=${DECOYS[2]}&password=${SECRET}`,
    unencodedAt: `postgresql://${atRole}:${AT_SECRET}@${hostPort}/${db}`,
  };
  // The default target carries its password under an encoded key, and points at a closed port: launch refusals.
  process.env.TARGET_DATABASE_URL = `postgresql://${role}@127.0.0.1:1/${db}?PASSWORD=${DECOYS[0]}&pass%77ord=${SECRET}`;
  process.env.TARGET_IS_EMBEDDED = "";
  logged = captureConsole();
});
after(async () => {
  logged.restore();
  await prisma().$disconnect();
  await ctl.drop();
  await target.drop();
  const u = new URL(target.url);
  u.pathname = "/postgres";
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  for (const r of [role, atRole]) {
    await c.query(`DROP OWNED BY ${r} CASCADE`).catch(() => undefined);
    await c.query(`DROP ROLE IF EXISTS ${r}`);
  }
  await c.end();
});

const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

function assertClean(where: string, text: string) {
  assert.ok(!text.includes(SECRET), `${where} shows the password: ${text.slice(0, 400)}`);
  assert.ok(!text.includes(SSL_SECRET), `${where} shows the sslpassword: ${text.slice(0, 400)}`);
  for (const d of DECOYS) assert.ok(!text.includes(d), `${where} shows a duplicated or cased key's password: ${text.slice(0, 400)}`);
  // Any part of the @ password, raw or encoded ("Part1%40LeakTail-5d2f" is how a URL object prints it).
  assert.ok(!/LeakTail-5d2f/.test(text), `${where} shows the password with an @: ${text.slice(0, 400)}`);
  assert.ok(!text.includes("Leak-Key-Path"), `${where} shows the sslkey file: ${text.slice(0, 400)}`);
}

test("a target saved with its password in each URL form never shows it: targets, info, runs, exports, refusals", async () => {
  const ids: string[] = [];
  for (const [name, url] of Object.entries(forms)) {
    const res = await postTarget(new Request("http://127.0.0.1/api/targets", json({ name: `leak ${name}`, connectionString: url })));
    const text = await res.text();
    assert.equal(res.status, 201, `${name}: ${text}`);
    assertClean(`POST /api/targets (${name})`, text);
    ids.push((JSON.parse(text) as { target: { id: string } }).target.id);
  }
  const list = await (await listTargetsRoute()).text();
  assertClean("GET /api/targets", list);
  assert.match(list, /password=\*\*\*\*/, "the masked form is shown");
  assert.match(list, /pass%77ord=\*\*\*\*/, "an encoded key is masked in its own spelling");
  assert.match(list, new RegExp(`${atRole}:\\*{4}@127\\.0\\.0\\.1:`), "the @ password is masked up to the host the driver uses");
  // What the New run page sends the browser (app/runs/new/page.tsx): the targets and the default's CLI form.
  assertClean("the New run page's data", JSON.stringify({ targets: await listTargets(), defaultCli: defaultTargetForCli() }));
  // The run page's reproducing command (app/runs/[id]/page.tsx → toCliCommand with the masked URL).
  const config = WorkloadConfig.parse({ kind: "queue", durationSeconds: 1 });
  assertClean("the default target's reproducing command", toCliCommand(config, defaultTargetForCli().targetUrl));
  for (const id of ids) {
    const command = toCliCommand(config, (await resolveTarget(id))?.maskedUrl);
    assertClean("a saved target's reproducing command", command);
    assert.match(command, /--target '?postgresql:\/\//, command);
  }
  for (const id of ids) {
    const info = await getInfo(new Request(`http://127.0.0.1/api/targets/${id}/info`), ctx(id));
    assert.equal(info.status, 200);
    assertClean("GET /api/targets/:id/info", await info.text());
    const launched = await postRun(new Request("http://127.0.0.1/api/runs", json({ config: { kind: "queue", durationSeconds: 1 }, targetId: id })));
    const body = await launched.text();
    assert.equal(launched.status, 201, body);
    const runId = (JSON.parse(body) as { id: string }).id;
    for (const [label, res] of [
      ["GET /api/runs/:id", await getRunRoute(new Request(`http://127.0.0.1/api/runs/${runId}?histograms=1`), ctx(runId))],
      ["GET /api/runs/:id/summary", await getSummary(new Request("http://127.0.0.1/x"), ctx(runId))],
      ["GET /api/runs/:id/samples.csv", await getSamples(new Request("http://127.0.0.1/x"), ctx(runId))],
      ["GET /api/compare", await compareRoute(new Request(`http://127.0.0.1/api/compare?ids=${runId}&format=csv`))],
    ] as const)
      assertClean(label, await res.text());
  }
  assertClean("GET /api/runs", await (await listRunsRoute(new Request("http://127.0.0.1/api/runs"))).text());

  // Refusals: an unreachable default target, a key=value string, a URL the checks refuse.
  const refused = await postRun(new Request("http://127.0.0.1/api/runs", json({ config: { kind: "queue" } })));
  const refusal = await refused.text();
  assert.equal(refused.status, 400);
  assert.match(refusal, /pass%77ord=\*\*\*\*/);
  assertClean("launch refusal", refusal);
  for (const bad of [
    `postgresql://u@127.0.0.1:1/db?ssl%6Bey=${KEY_PATH}&password=${SECRET}`,
    `postgresql://u:${AT_SECRET}@127.0.0.1:1/db`,
    `host=127.0.0.1 user=${role} password=${SECRET} dbname=x`,
    `mysql://u:${SECRET}@h/db`,
    `postgresql://u@127.0.0.1:1/db?password=${SECRET}`,
  ]) {
    const res = await postTarget(new Request("http://127.0.0.1/api/targets", json({ connectionString: bad })));
    assert.equal(res.status, 400);
    assertClean(`POST /api/targets refusal for ${bad.slice(0, 20)}`, await res.text());
  }
});

test("an import whose command line holds a password, in any form, stores and repeats none of it", async () => {
  for (const command of [
    `./pg_msg_bench -mode queue -password ${SECRET}`,
    `./pg_msg_bench -mode queue -url ${forms.query}`,
    `./pg_msg_bench host=h password=${SECRET}`,
  ]) {
    const bad = await postImport(new Request("http://127.0.0.1/api/imports", json({ text: `${command}\nnot the output of the tool`, command })));
    assert.equal(bad.status, 400);
    assertClean(`import refusal (${command.slice(0, 30)})`, await bad.text());
  }
  const rows = await prisma().importedResult.findMany();
  for (const r of rows) {
    assertClean("stored import", r.rawText + JSON.stringify(r.parsed));
    assertClean("GET /api/imports/:id", await (await getImport(new Request("http://127.0.0.1/x"), ctx(r.id))).text());
  }
});

test("the CLI's lines and errors, and a --save'd run, never show the password", async () => {
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const code = await cli(["queue", "-writers", "1", "-readers", "1", "-duration", "1s", "--warmup", "0s", "--save", "--target", forms.sslpassword], io);
  assert.equal(code, 0, JSON.stringify(lines));
  const atCode = await cli(["queue", "-writers", "1", "-readers", "1", "-duration", "1s", "--warmup", "0s", "--save", "--target", forms.unencodedAt], io);
  assert.equal(atCode, 0, JSON.stringify(lines));
  const unreachable = await cli(["queue", "-duration", "1s", "--target", `postgresql://${role}@127.0.0.1:1/db?password=${SECRET}`], io);
  assert.equal(unreachable, 1);
  const encoded = await cli(["queue", "-duration", "1s", "--target", `postgresql://${role}@127.0.0.1:1/db?pass%77ord=${SECRET}`], io);
  assert.equal(encoded, 1);
  assert.ok(
    lines.some((l) => /password=\*\*\*\*/.test(l)),
    "the masked URL is named",
  );
  assertClean("CLI output", lines.join("\n"));
  const saved = await prisma().run.findMany({ where: { source: "cli" } });
  assert.equal(saved.length, 2);
  for (const run of saved) {
    assertClean("the CLI's stored run", JSON.stringify(run));
    assertClean("GET /api/runs/:id of the CLI's run", await (await getRunRoute(new Request("http://127.0.0.1/x"), ctx(run.id))).text());
  }
});

test("no console line written during these tests holds a password", () => {
  assertClean("console (app and runner log)", logged.lines.join("\n"));
});
