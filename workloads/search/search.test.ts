// The search workload on a real (embedded) Postgres: the seeded corpus, both variants and the pg_trgm option
// run briefly, the target holds exactly the generated corpus, verification passes, and fails when the corpus,
// the index's input or an answer is tampered with.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { toInput } from "../../components/run-form/fields";
import { toCliCommand } from "../../lib/runs/cli-command";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { parseArgs, runWorkload } from "../../runner/harness";
import { generateCorpus, vocabulary } from "./corpus";
import { DEFAULT_TERMS, parseTerms } from "./definition";
import { factOf } from "../../lib/measurement/verification";
import { throughputOf, latencyOf } from "../../lib/measurement/operations";

let db: { url: string; drop: () => Promise<void> };
let admin: pg.Client;
before(async () => {
  db = await testDatabase("search");
  admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
});
after(async () => {
  await admin.end();
  await db.drop();
});

const ARTICLES = 600;
const config = (over: Partial<Record<string, unknown>> = {}) =>
  WorkloadConfig.parse({
    kind: "search",
    vus: 4,
    thinkMs: 0,
    pool: 2,
    articles: ARTICLES,
    warmupSeconds: 0,
    durationSeconds: 1,
    ...over,
  } as WorkloadInput);

/** Runs with the schema kept; `tamper` runs as the measured window starts (before verification). */
async function run(over: Partial<Record<string, unknown>>, tamper?: (schema: string) => Promise<unknown>) {
  let schema = "";
  let pending: Promise<unknown> | undefined;
  const summary = await runWorkload(config(over), db.url, {
    keepSchema: true,
    onSchema: (s) => (schema = `"${s}"`),
    onPhase: (p) => {
      if (p === "measuring" && tamper) pending = tamper(schema);
    },
  });
  await pending;
  return { summary, schema };
}

describe("the corpus", () => {
  test("is the same for the same seed, with each term in about 2 % of the articles", () => {
    const a = generateCorpus(2000, DEFAULT_TERMS);
    const b = generateCorpus(2000, DEFAULT_TERMS);
    assert.equal(a.checksum, b.checksum);
    assert.notEqual(generateCorpus(2000, DEFAULT_TERMS, 7).checksum, a.checksum);
    for (const [term, ids] of a.matches) {
      assert.ok(ids.length > 15 && ids.length < 70, `${term}: ${ids.length} of 2,000`);
      for (const id of ids.slice(0, 5)) {
        const art = a.articles[id - 1];
        assert.match(`${art.title} ${art.body}`.toLowerCase(), new RegExp(`\\b${term}\\b`));
      }
    }
    // Articles without a term do not contain it, not even inside another word.
    const ids = new Set(a.matches.get("index"));
    assert.ok(a.articles.filter((x) => !ids.has(x.id)).every((x) => !`${x.title} ${x.body}`.toLowerCase().includes("index")));
  });

  test("its vocabulary holds no term nor the first half of one", () => {
    const words = vocabulary(DEFAULT_TERMS);
    assert.equal(new Set(words).size, 5000);
    for (const bad of ["perfor", "datab", "que", "ind", "cac", "sea"]) assert.ok(!words.some((w) => w.includes(bad)), bad);
  });

  test("terms are checked with messages that say what is wrong", () => {
    assert.deepEqual(parseTerms(" cache , queue "), { ok: true, terms: ["cache", "queue"] });
    assert.match((parseTerms("data,database") as { message: string }).message, /"database" contains "data"/);
    assert.match((parseTerms("Cache") as { message: string }).message, /lower-case letters a-z.*"Cache" is not/);
    assert.match((parseTerms("cache,cache") as { message: string }).message, /named twice/);
    const r = WorkloadConfig.safeParse({ kind: "search", terms: "db" });
    assert.equal(r.success, false);
    assert.match(JSON.stringify(r.error?.issues), /Terms must be words of 3 to 30 lower-case letters/);
  });
});

for (const variant of ["baseline", "modded"] as const) {
  describe(`search ${variant}`, () => {
    test("holds the seeded corpus, answers with the rows the corpus explains, and verifies", async () => {
      const { summary, schema } = await run({ variant });
      try {
        assert.equal(summary.verification.ok, true, summary.verification.problems.join("; "));
        const searches = throughputOf(summary, "search")!.count ?? 0;
        assert.ok(searches > 5, `searches: ${searches}`);
        assert.ok(latencyOf(summary, "search") && latencyOf(summary, "total"));
        const n = Number((await admin.query(`SELECT count(*) AS n FROM ${schema}.articles`)).rows[0].n);
        assert.equal(n, ARTICLES);
        const expected = generateCorpus(ARTICLES, DEFAULT_TERMS);
        const sum = await admin.query(`SELECT md5(string_agg(id::text || E'\\t' || title || E'\\t' || body, E'\\n' ORDER BY id)) AS m FROM ${schema}.articles`);
        assert.equal(sum.rows[0].m, expected.checksum);
        const perSearch = (throughputOf(summary, "rows")!.count ?? 0) / searches;
        // About 12 matches per term in 600 articles: the baseline returns them all, the modded at most 20.
        assert.ok(perSearch > 3 && perSearch <= (variant === "modded" ? 20 : 40), `rows per search ${perSearch}`);
        assert.ok(summary.notes?.some((x) => x.startsWith("rows returned per search:")));
        const cols = await admin.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'articles'`, [
          schema.slice(1, -1),
        ]);
        assert.equal(
          cols.rows.some((r) => r.column_name === "search_vector"),
          variant === "modded",
        );
      } finally {
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      }
    });
  });
}

describe("tampering", () => {
  test("an article deleted or edited fails the baseline's verification", async () => {
    const { summary, schema } = await run({ variant: "baseline" }, (s) => admin.query(`DELETE FROM ${s}.articles WHERE id = 1`));
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    assert.equal(summary.verification.ok, false);
    assert.ok(summary.verification.problems.some((p) => p.includes(`holds ${ARTICLES - 1} rows, not the ${ARTICLES}`)));
    const edited = await run({ variant: "baseline" }, (s) => admin.query(`UPDATE ${s}.articles SET body = body || ' x' WHERE id = 2`));
    await admin.query(`DROP SCHEMA IF EXISTS ${edited.schema} CASCADE`);
    assert.ok(edited.summary.verification.problems.some((p) => p.includes("differ from the seeded corpus")));
  });

  test("a search vector emptied behind the trigger's back fails the modded verification", async () => {
    const target = generateCorpus(ARTICLES, DEFAULT_TERMS).matches.get("cache")![0];
    const { summary, schema } = await run({ variant: "modded" }, (s) =>
      // The trigger would recompute the vector on UPDATE: it has to be disabled to break the index's input.
      admin
        .query(`ALTER TABLE ${s}.articles DISABLE TRIGGER trg_search`)
        .then(() => admin.query(`UPDATE ${s}.articles SET search_vector = NULL WHERE id = $1`, [target])),
    );
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    assert.equal(summary.verification.ok, false);
    const problem = summary.verification.problems.find((p) => p.startsWith('"cache"'));
    assert.ok(problem?.includes(`missing ids ${target}`), summary.verification.problems.join("; "));
    // Its row count is still the seeded one: the checksum covers title and body, the search found less.
    assert.equal(factOf(summary.verification, "the articles table holds the corpus"), true);
  });
});

describe("the indexed baseline (pg_trgm)", () => {
  test("serves ILIKE from trigram indexes and finds the same articles", async () => {
    const { summary, schema } = await run({ variant: "baseline", trigram: true });
    try {
      assert.equal(summary.verification.ok, true, summary.verification.problems.join("; "));
      const idx = await admin.query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 ORDER BY 1`, [schema.slice(1, -1)]);
      assert.deepEqual(
        idx.rows.map((r) => r.indexname),
        ["articles_pkey", "idx_body_trgm", "idx_title_trgm"],
      );
      assert.ok(summary.notes?.some((n) => n.includes("pg_trgm GIN indexes")));
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  });
});

test("the terms are a text field: the form, the CLI and the reproducing command carry them as typed", () => {
  const r = parseArgs(["search", "--variant", "modded", "--terms", "cache,queue", "--articles", "500"]);
  assert.equal(r.kind, "run");
  const c = r.kind === "run" ? (r.options.config as unknown as Record<string, unknown>) : {};
  assert.equal(c.terms, "cache,queue");
  const cmd = toCliCommand(c as never);
  assert.match(cmd, / --terms cache,queue( |$)/);
  assert.doesNotMatch(toCliCommand(config() as never), /--terms/, "the default terms are not written out");
  assert.equal((toInput("search", { terms: " cache,queue " }) as Record<string, unknown>).terms, "cache,queue");
  assert.deepEqual(parseArgs(["search", "--terms", "Cache"]), {
    kind: "error",
    message: 'invalid search settings: -terms: Terms must be words of 3 to 30 lower-case letters a-z, separated by commas: "Cache" is not',
  });
});
