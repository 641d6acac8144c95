// Names, notes and tags (issue 33) in a real control store: set at launch's insert and by PATCH, refused naming the
// field; the runs list filtered by each of workload, target, tag, status, created day and a search of names and notes;
// deletion by filter takes the runs' samples with them and keeps queued and running runs, saying how many.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { DELETE, GET } from "../../app/api/runs/route";
import { PATCH } from "../../app/api/runs/[id]/route";
import { prisma } from "../db";
import { migrate } from "../../platform/migrate";
import { testDatabase } from "../testing";
import { WorkloadConfig } from "../workloads/config";
import { memberName, parseLabels, splitTags } from "./labels";
import { parseListQuery } from "./list-filter";
import { appendSample, createRun, deleteRunsMatching, finishRun, listRunRows, runsListFacets } from "./store";

let db: Awaited<ReturnType<typeof testDatabase>>;
const queue = WorkloadConfig.parse({ kind: "queue", writers: 1, readers: 1, durationSeconds: 3, warmupSeconds: 1 });
const pubsub = WorkloadConfig.parse({ kind: "pubsub" });
const BASE = "http://127.0.0.1:3000";

before(async () => {
  db = await testDatabase("run_labels");
  process.env.DATABASE_URL = db.url;
  process.env.TARGET_DATABASE_URL ??= "postgresql://127.0.0.1:5432/unused";
  await migrate(db.url);
});
after(async () => {
  await prisma().$disconnect();
  await db.drop();
});

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
const filtered = async (query: string) => {
  const f = parseListQuery(new URLSearchParams(query));
  assert.ok(f.ok, query);
  return ids(await listRunRows(f.filter));
};
const patch = (id: string, body: unknown) =>
  PATCH(new Request(`${BASE}/api/runs/${id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), {
    params: Promise.resolve({ id }),
  });

test("labels are checked with messages naming the field and what to do", () => {
  assert.deepEqual(splitTags(" pg18, wal:sync  pg18,,v1.2 "), ["pg18", "wal:sync", "v1.2"]);
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{ name: "n".repeat(121) }, "name", /121 characters long; shorten it to 120 or fewer/],
    [{ name: "a\u0000b" }, "name", /control character/],
    [{ notes: "x".repeat(10_001) }, "notes", /shorten them to 10,000 or fewer/],
    [{ tags: ["ok", "not ok"] }, "tags", /tag "not ok" has a character other than letters, digits and - _ \. :/],
    [{ tags: "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u" }, "tags", /21 tags given; keep at most 20/],
    [{ tags: ["t".repeat(41)] }, "tags", /41 characters long; shorten it to 40/],
    [{ tags: 7 }, "tags", /tags must be a list of tags/],
  ];
  for (const [input, field, msg] of cases) {
    const r = parseLabels(input);
    assert.equal(r.ok, false, JSON.stringify(input).slice(0, 60));
    if (!r.ok) assert.match(r.fields[field], msg);
  }
  // 20 tags, a 120-character name and 10,000 characters of notes are fine; blank text removes a label.
  const ok = parseLabels({ name: ` ${"n".repeat(120)} `, notes: "x".repeat(10_000), tags: Array.from({ length: 20 }, (_, i) => `t${i}`) });
  assert.ok(ok.ok && ok.labels.name?.length === 120 && ok.labels.tags?.length === 20);
  assert.deepEqual(parseLabels({ name: "  ", notes: "" }), { ok: true, labels: { name: null, notes: null } });
  // A set's run: the set's name and its place, the name cut so the whole is a valid name.
  assert.equal(memberName("WAL test", "modded, pair 2"), "WAL test · modded, pair 2");
  const long = memberName("x".repeat(200), "modded, pair 2");
  assert.equal(long?.length, 120);
  assert.ok(long?.endsWith("x… · modded, pair 2") && parseLabels({ name: long }).ok);
  assert.equal(memberName(null, "run 1 of 3"), null);
});

test("a run is named, tagged and annotated at its insert and by PATCH; a bad label changes nothing and names the field", async () => {
  const run = await createRun({ config: queue, targetLabel: "embedded default", labels: { name: "baseline", tags: ["pg18"] } });
  assert.deepEqual([run.name, run.notes, run.tags], ["baseline", null, ["pg18"]]);

  const res = await patch(run.id, { name: "Baseline, WAL on", notes: "after the vacuum change\nsecond line", tags: "pg18 wal:on" });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { name: string; notes: string; tags: string[] };
  assert.deepEqual([body.name, body.notes, body.tags], ["Baseline, WAL on", "after the vacuum change\nsecond line", ["pg18", "wal:on"]]);

  const bad = await patch(run.id, { name: "kept?", tags: ["bad tag"] });
  assert.equal(bad.status, 400);
  assert.match(((await bad.json()) as { fields: { tags: string } }).fields.tags, /tag "bad tag"/);
  const unknown = await patch(run.id, { status: "completed" });
  assert.equal(unknown.status, 400);
  assert.match(((await unknown.json()) as { error: string }).error, /unknown field "status": a run's name, notes and tags can be changed/);
  const stored = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
  assert.deepEqual([stored.name, stored.tags, stored.status], ["Baseline, WAL on", ["pg18", "wal:on"], "queued"], "nothing of a refused PATCH is stored");

  // Only the labels given change; null removes one.
  await patch(run.id, { notes: null });
  const after = await prisma().run.findUniqueOrThrow({ where: { id: run.id } });
  assert.deepEqual([after.name, after.notes, after.tags], ["Baseline, WAL on", null, ["pg18", "wal:on"]]);
  assert.equal((await patch("r_000000000000", { name: "x" })).status, 404);
  await prisma().run.delete({ where: { id: run.id } });
});

test("the list filters by workload, target, tag, status, created day and a case-insensitive search of names and notes", async () => {
  const a = await createRun({ config: queue, targetLabel: "laptop", labels: { name: "Vacuum 50%_test", tags: ["pg18", "wal"] } });
  const b = await createRun({ config: pubsub, targetLabel: "laptop", labels: { notes: "Checked after the VACUUM change", tags: ["pg17"] } });
  const c = await createRun({ config: queue, targetLabel: "rds", labels: { tags: ["pg18"] } });
  await finishRun(a.id, { status: "completed" });
  await finishRun(b.id, { status: "failed", error: "boom" });
  await prisma().run.update({ where: { id: c.id }, data: { createdAt: new Date("2026-01-02T23:59:59Z") } });
  // A run imported from another instance's bundle (lib/bundle/) is listed and filtered as the others are.
  const imp = await createRun({ config: queue, targetLabel: "imported", source: "import", labels: { tags: ["pg18"], name: "vacuum" } });

  assert.deepEqual(await filtered("tag=pg18"), ids([a, c, imp]), "an imported run is listed beside the others");
  assert.deepEqual(await filtered("tag=pg1"), [], "a tag matches whole");
  assert.deepEqual(await filtered("q=vacuum"), ids([a, b, imp]), "names and notes, any case");
  assert.deepEqual(await filtered("q=50%25_"), ids([a]), "% and _ are taken as typed");
  assert.deepEqual(await filtered("q=m%25"), [], 'not as LIKE\'s wildcards ("m%" is in no name)');
  assert.deepEqual(await filtered("workload=queue"), ids([a, c, imp]));
  assert.deepEqual(await filtered("target=laptop&status=failed"), ids([b]));
  assert.deepEqual(await filtered("from=2026-01-02&to=2026-01-02"), ids([c]), "both days whole, in UTC");
  assert.deepEqual(await filtered("to=2026-01-01"), []);
  assert.deepEqual(await filtered("from=2026-01-03&tag=pg18"), ids([a, imp]));
  assert.deepEqual(await runsListFacets(), { total: 4, targets: ["imported", "laptop", "rds"], tags: ["pg17", "pg18", "wal"] });

  const res = await GET(new Request(`${BASE}/api/runs?tag=pg18&q=VACUUM`));
  const listed = ((await res.json()) as { runs: { id: string; name: string; tags: string[] }[] }).runs;
  assert.deepEqual(
    listed.map((r) => [r.id, r.name, r.tags]),
    [
      [imp.id, "vacuum", ["pg18"]],
      [a.id, "Vacuum 50%_test", ["pg18", "wal"]],
    ],
  );
  for (const [q, field] of [
    ["from=2026-02-30", "from"],
    ["tag=a%20b", "tag"],
    ["from=2026-02-02&to=2026-02-01", "from"],
  ]) {
    const bad = await GET(new Request(`${BASE}/api/runs?${q}`));
    assert.equal(bad.status, 400, q);
    assert.ok(((await bad.json()) as { fields: Record<string, string> }).fields[field], q);
  }
  // No filter: every finished run; c and the imported one (made queued here) are skipped.
  assert.deepEqual(await deleteRunsMatching({}), { deleted: 2, skipped: 2 });
  assert.deepEqual((await prisma().run.findMany({ select: { source: true } })).map((r) => r.source).sort(), ["app", "import"]);
  await prisma().run.deleteMany();
});

test("deleting by filter removes the matching finished runs with their samples, keeps queued and running ones and says how many", async () => {
  const done = await createRun({ config: queue, targetLabel: "laptop", labels: { tags: ["old"] } });
  await finishRun(done.id, { status: "completed" });
  await appendSample(done.id, 0, "measuring", {} as never);
  const running = await createRun({ config: queue, targetLabel: "laptop", status: "running", labels: { tags: ["old"] } });
  const queued = await createRun({ config: queue, targetLabel: "laptop", labels: { tags: ["old"] } });
  const other = await createRun({ config: queue, targetLabel: "laptop", labels: { tags: ["keep"] } });
  await finishRun(other.id, { status: "completed" });

  const res = await DELETE(new Request(`${BASE}/api/runs?tag=old`, { method: "DELETE" }));
  assert.deepEqual(await res.json(), { deleted: 1, skipped: 2 });
  assert.equal(await prisma().sample.count({ where: { runId: done.id } }), 0, "its samples went with it");
  assert.deepEqual(ids(await prisma().run.findMany({ select: { id: true } })), ids([running, queued, other]));
  // A filter that is not one deletes nothing.
  const bad = await DELETE(new Request(`${BASE}/api/runs?status=done`, { method: "DELETE" }));
  assert.equal(bad.status, 400);
  assert.equal(await prisma().run.count(), 3);
});
