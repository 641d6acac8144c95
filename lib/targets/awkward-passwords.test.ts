// Passwords a search-and-replace mask gets wrong, on a real Postgres with a real role for each: equal to the user
// name, the database, the host, the port, `postgres`, `pass`, one character, and holding spaces, @, %, quotes and
// non-ASCII letters. Wherever a target is shown (the targets API and its info, its 502, save and launch refusals,
// the New run page's data, a run's reproducing command, exports, the CLI's lines, the log), the URL reads exactly
// as typed with **** in the password's place; and the reproducing command, its password typed back in, runs.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, test } from "node:test";
import pg from "pg";
import { GET as getRunRoute } from "../../app/api/runs/[id]/route";
import { GET as getSamples } from "../../app/api/runs/[id]/samples.csv/route";
import { GET as getSummary } from "../../app/api/runs/[id]/summary/route";
import { POST as postRun } from "../../app/api/runs/route";
import { GET as getInfo } from "../../app/api/targets/[id]/info/route";
import { GET as listTargetsRoute, POST as postTarget } from "../../app/api/targets/route";
import { main as cli } from "../../runner/cli";
import { parseArgs } from "../../runner/cli-args";
import { prisma } from "../db";
import { toCliCommand } from "../runs/cli-command";
import { captureConsole, testControlStore, testDatabase } from "../testing";
import { WorkloadConfig } from "../workloads/config";
import { defaultTargetForCli } from "./default-target";
import { listTargets, resolveTarget } from "./store";

let ctl: Awaited<ReturnType<typeof testControlStore>>;
let target: Awaited<ReturnType<typeof testDatabase>>;
let admin: pg.Client;
const tag = `${process.pid}`;
let logged: ReturnType<typeof captureConsole>;

interface Case {
  why: string;
  role: string;
  password: string;
  /** The password is a word of the URL or of the messages around it: it may be shown there, never in its own place. */
  isAWord: boolean;
  url: string;
  masked: string;
  /** The same role on a closed port: every connection is refused. */
  closed: string;
  closedMasked: string;
}
let cases: Case[];

before(async () => {
  ctl = await testControlStore("awkward_ctl");
  target = await testDatabase("awkward_tgt");
  process.env.TARGET_DATABASE_URL = target.url;
  process.env.TARGET_IS_EMBEDDED = "1";
  const u = new URL(target.url);
  const [host, port, db] = [u.hostname, u.port, u.pathname.slice(1)];
  const spec: [string, string, string, boolean][] = [
    ["postgres", `pgbb_pg_${tag}`, "postgres", true],
    ["pass, inside the user name", `pgbb_pass_${tag}`, "pass", true],
    ["the user name", `pgbb_same_${tag}`, `pgbb_same_${tag}`, true],
    ["the database", `pgbb_db_${tag}`, db, true],
    ["the host", `pgbb_host_${tag}`, host, true],
    ["the port", `pgbb_port_${tag}`, port, true],
    ["one character", `pgbb_one_${tag}`, "p", true],
    ["a space", `pgbb_sp_${tag}`, "a b", false],
    ["spaces", `pgbb_sps_${tag}`, "my secret pw", false],
    ["an @ and a space", `pgbb_at_${tag}`, "Ab@cd ef", false],
    ["a %", `pgbb_pct_${tag}`, "100% Sure", false],
    ["quotes", `pgbb_q_${tag}`, `it's "Quoted"`, false],
    ["non-ASCII letters", `pgbb_na_${tag}`, "Pässwörd ✓ Ünïcode", false],
  ];
  admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  cases = [];
  for (const [why, role, password, isAWord] of spec) {
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD ${admin.escapeLiteral(password)}`);
    await admin.query(`GRANT CREATE ON DATABASE ${db} TO ${role}`);
    cases.push({
      why,
      role,
      password,
      isAWord,
      url: `postgresql://${role}:${password}@${host}:${port}/${db}`,
      masked: `postgresql://${role}:****@${host}:${port}/${db}`,
      closed: `postgresql://${role}:${password}@${host}:1/${db}`,
      closedMasked: `postgresql://${role}:****@${host}:1/${db}`,
    });
  }
  logged = captureConsole();
});
after(async () => {
  logged.restore();
  await prisma().$disconnect();
  // The roles own objects in the target's database: dropped there, before the database itself.
  for (const c of cases ?? []) {
    await admin.query(`DROP OWNED BY ${c.role} CASCADE`).catch(() => undefined);
  }
  await admin.end();
  await ctl.drop();
  await target.drop();
  const server = new pg.Client({ connectionString: target.url.replace(/\/[^/?]*(\?|$)/, "/postgres$1") });
  await server.connect();
  for (const c of cases ?? []) await server.query(`DROP ROLE IF EXISTS ${c.role}`);
  await server.end();
});

const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

/** The text names the URL masked as expected, and shows the password nowhere (where it is no word of the text). */
function assertShown(where: string, text: string, c: Case, masked = c.masked) {
  const t = text.replaceAll("\\/", "/");
  assert.ok(t.includes(masked), `${where} (${c.why}): expected ${masked} in ${t.slice(0, 600)}`);
  assert.ok(!t.includes(`:${c.password}@`), `${where} (${c.why}) shows the password in place: ${t.slice(0, 600)}`);
  if (!c.isAWord) assert.ok(!t.includes(c.password) && !t.includes(JSON.stringify(c.password).slice(1, -1)), `${where} (${c.why}) shows the password`);
  // A mask inside another word tells what it hides (****ql://, u_****:).
  assert.doesNotMatch(t, /\w\*\*\*\*|\*\*\*\*\w/, `${where} (${c.why}): a mask inside a word in ${t.slice(0, 600)}`);
}

/** A shell's own reading of a command line's words (the command a reader pastes). */
function shellWords(command: string): string[] {
  const r = spawnSync("/bin/sh", ["-c", `set -- ${command}; for a in "$@"; do printf '%s\\0' "$a"; done`]);
  assert.equal(r.status, 0, r.stderr.toString());
  return r.stdout.toString().split("\0").slice(0, -1);
}

const ids = new Map<string, string>();

test("saved targets show their URL with **** in the password's place only: save, list, info, its 502, the New run page", async () => {
  for (const c of cases) {
    const res = await postTarget(new Request("http://127.0.0.1/api/targets", json({ name: `awkward ${c.role}`, connectionString: c.url })));
    const text = await res.text();
    assert.equal(res.status, 201, `${c.why}: ${text}`);
    assert.equal((JSON.parse(text) as { target: { maskedUrl: string } }).target.maskedUrl, c.masked, c.why);
    assertShown("POST /api/targets", text, c);
    ids.set(c.role, (JSON.parse(text) as { target: { id: string } }).target.id);
  }
  const listed = (await (await listTargetsRoute()).json()) as { targets: { id: string; maskedUrl: string }[] };
  const onPage = await listTargets();
  for (const c of cases) {
    const id = ids.get(c.role)!;
    assert.equal(listed.targets.find((t) => t.id === id)?.maskedUrl, c.masked, `GET /api/targets (${c.why})`);
    assert.equal(onPage.find((t) => t.id === id)?.maskedUrl, c.masked, `the New run page's targets (${c.why})`);
    const info = await getInfo(new Request(`http://127.0.0.1/api/targets/${id}/info`), ctx(id));
    const body = await info.text();
    assert.equal(info.status, 200, body);
    assertShown("GET /api/targets/:id/info", body, c);
  }
  // The role's password changed on the server: the info's 502 names the masked URL and the cause.
  for (const c of cases) await admin.query(`ALTER ROLE ${c.role} PASSWORD 'changed-${tag}'`);
  try {
    for (const c of cases) {
      const id = ids.get(c.role)!;
      const info = await getInfo(new Request(`http://127.0.0.1/api/targets/${id}/info`), ctx(id));
      const body = (await info.json()) as { error: string };
      assert.equal(info.status, 502);
      assert.equal(body.error, `awkward ${c.role}: cannot connect to ${c.masked}: password authentication failed (28P01)`, c.why);
    }
  } finally {
    for (const c of cases) await admin.query(`ALTER ROLE ${c.role} PASSWORD ${admin.escapeLiteral(c.password)}`);
  }
});

test("save and launch refusals of an unreachable target name its URL masked in place", async () => {
  for (const c of cases) {
    const res = await postTarget(new Request("http://127.0.0.1/api/targets", json({ name: `closed ${c.role}`, connectionString: c.closed })));
    const text = await res.text();
    assert.equal(res.status, 400, text);
    assertShown("POST /api/targets refusal", text, c, `cannot connect to ${c.closedMasked}: connection refused`);
  }
  const saved = { url: process.env.TARGET_DATABASE_URL, embedded: process.env.TARGET_IS_EMBEDDED };
  try {
    for (const c of cases.filter((x) => !x.isAWord || x.password === "postgres")) {
      process.env.TARGET_DATABASE_URL = c.closed;
      process.env.TARGET_IS_EMBEDDED = "";
      assert.equal(defaultTargetForCli().targetUrl, c.closedMasked, `the default target's command (${c.why})`);
      const res = await postRun(new Request("http://127.0.0.1/api/runs", json({ config: { kind: "queue", durationSeconds: 1 } })));
      const text = await res.text();
      assert.equal(res.status, 400, text);
      assertShown("launch refusal", text, c, c.closedMasked);
    }
  } finally {
    process.env.TARGET_DATABASE_URL = saved.url;
    process.env.TARGET_IS_EMBEDDED = saved.embedded;
  }
});

test("a run's reproducing command shows the URL masked and shell-quoted; with the password typed in, the CLI reads the same URL", async () => {
  const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, durationSeconds: 1, warmupSeconds: 0 });
  for (const c of cases) {
    const id = ids.get(c.role)!;
    const launched = await postRun(new Request("http://127.0.0.1/api/runs", json({ config, targetId: id })));
    const runId = ((await launched.json()) as { id: string }).id;
    assert.equal(launched.status, 201);
    for (const [label, res] of [
      ["GET /api/runs/:id", await getRunRoute(new Request(`http://127.0.0.1/api/runs/${runId}`), ctx(runId))],
      ["GET /api/runs/:id/summary", await getSummary(new Request("http://127.0.0.1/x"), ctx(runId))],
      ["GET /api/runs/:id/samples.csv", await getSamples(new Request("http://127.0.0.1/x"), ctx(runId))],
    ] as const) {
      const text = await res.text();
      assert.ok(!text.includes(`:${c.password}@`) && !/\w\*\*\*\*|\*\*\*\*\w/.test(text), `${label} (${c.why}): ${text.slice(0, 400)}`);
      if (!c.isAWord) assert.ok(!text.includes(c.password), `${label} (${c.why}) shows the password`);
    }
    // What the run page shows (app/runs/[id]/page.tsx: the saved target's maskedUrl).
    const command = toCliCommand(config, (await resolveTarget(id))!.maskedUrl);
    assert.ok(command.endsWith(` --target '${c.masked}'`), `${c.why}: ${command}`);
    // The reader types the password in place of ****, inside the quotes (a ' typed as '\'').
    const typed = command.replace("****", c.password.replaceAll("'", `'\\''`));
    const argv = shellWords(typed.slice(typed.indexOf(" -- ") + 4));
    const parsed = parseArgs(argv);
    assert.equal(parsed.kind, "run", JSON.stringify(parsed));
    assert.equal(parsed.kind === "run" && parsed.options.target, c.url, c.why);
  }
});

test("the CLI, run from a reproducing command with the password typed in, connects and shows the password nowhere", async () => {
  const config = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, durationSeconds: 1, warmupSeconds: 0 });
  for (const c of cases.filter((x) => ["spaces", "quotes", "postgres"].includes(x.why))) {
    const typed = toCliCommand(config, c.masked).replace("****", c.password.replaceAll("'", `'\\''`));
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    const code = await cli(shellWords(typed.slice(typed.indexOf(" -- ") + 4)), io);
    assert.equal(code, 0, `${c.why}: ${lines.join("\n")}`);
    const text = lines.join("\n");
    assert.doesNotMatch(text, /\w\*\*\*\*|\*\*\*\*\w/, text);
    if (!c.isAWord) assert.ok(!text.includes(c.password), `${c.why}: ${text}`);
  }
  // Its 'cannot connect to' message, for each password.
  for (const c of cases) {
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    assert.equal(await cli(["queue", "-duration", "1s", "--target", c.closed], io), 1);
    assertShown("the CLI's refusal", lines.join("\n"), c, `cannot connect to the target ${c.closedMasked}: connection refused`);
  }
});

test("no console line written meanwhile shows a password or a mask inside a word", () => {
  const text = logged.lines.join("\n");
  for (const c of cases) {
    assert.ok(!text.includes(`:${c.password}@`), `the log shows ${c.why} in place`);
    if (!c.isAWord) assert.ok(!text.includes(c.password), `the log shows ${c.why}`);
  }
  assert.doesNotMatch(text, /\w\*\*\*\*|\*\*\*\*\w/);
});
