// The search workload's SQL (server-only). The tables and queries are the article's, schema-qualified,
// with the term as a parameter:
// - baseline: the same `articles` table without search_vector, index or trigger; `SELECT *` with ILIKE on
//   title and body: every matching row, bodies included, no ranking, no LIMIT (a sequential scan);
// - modded: search_vector kept by a BEFORE INSERT OR UPDATE trigger, a GIN index, plainto_tsquery + ts_rank,
//   at most 20 (id, title, rank) rows;
// - the fair indexed baseline (an option, not the article's): the baseline's query served by pg_trgm GIN
//   indexes on title and body, which ILIKE '%term%' can use.
import type pg from "pg";
import { type Corpus, corpusChecksumSql } from "./corpus";
import { countWords } from "../../lib/words";

/** What verification needs of a corpus (not its articles). */
export type CorpusFacts = Pick<Corpus, "checksum" | "matches"> & { size: number };

export type SearchVariant = "baseline" | "modded";

/** Rows per multi-row INSERT while loading (about 1 MB of text each at the default article sizes). */
const LOAD_BATCH = 500;

export function searchSql(s: string, variant: SearchVariant, trigram: boolean) {
  const t = `${s}.articles`;
  return {
    table: t,
    create:
      variant === "modded"
        ? [
            `CREATE TABLE ${t} (id SERIAL PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL, search_vector tsvector)`,
            `CREATE INDEX idx_search ON ${t} USING GIN (search_vector)`,
            `CREATE OR REPLACE FUNCTION ${s}.update_search_vector() RETURNS trigger AS $$
             BEGIN
               NEW.search_vector := to_tsvector('english', COALESCE(NEW.title, '') || ' ' || COALESCE(NEW.body, ''));
               RETURN NEW;
             END;
             $$ LANGUAGE plpgsql`,
            `CREATE TRIGGER trg_search BEFORE INSERT OR UPDATE ON ${t} FOR EACH ROW EXECUTE FUNCTION ${s}.update_search_vector()`,
          ]
        : [`CREATE TABLE ${t} (id SERIAL PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL)`],
    // Built after the load (one index build is much faster than maintaining it row by row).
    afterLoad:
      variant === "baseline" && trigram
        ? [`CREATE INDEX idx_title_trgm ON ${t} USING GIN (title gin_trgm_ops)`, `CREATE INDEX idx_body_trgm ON ${t} USING GIN (body gin_trgm_ops)`]
        : [],
    insert: `INSERT INTO ${t} (id, title, body) SELECT * FROM unnest($1::int[], $2::text[], $3::text[])`,
    // The benchmarked query, one term per request.
    query:
      variant === "modded"
        ? `SELECT id, title, ts_rank(search_vector, plainto_tsquery('english', $1)) AS rank
           FROM ${t} WHERE search_vector @@ plainto_tsquery('english', $1)
           ORDER BY rank DESC LIMIT 20`
        : `SELECT * FROM ${t} WHERE title ILIKE $1 OR body ILIKE $1`,
    /** The query's parameter for a term. */
    param: (term: string) => (variant === "modded" ? term : `%${term}%`),
    /** Verification: every article the variant's predicate finds for a term, without LIMIT (through the index
     *  when there is one: the caller turns sequential scans off). */
    matching:
      variant === "modded"
        ? `SELECT array_agg(id ORDER BY id) AS ids FROM ${t} WHERE search_vector @@ plainto_tsquery('english', $1)`
        : `SELECT array_agg(id ORDER BY id) AS ids FROM ${t} WHERE title ILIKE $1 OR body ILIKE $1`,
    checksum: corpusChecksumSql(t),
  };
}

/** Creates the table, loads the corpus in multi-row INSERTs, builds what comes after and runs VACUUM ANALYZE. */
export async function loadCorpus(admin: pg.Client, sql: ReturnType<typeof searchSql>, corpus: Corpus): Promise<void> {
  for (const q of sql.create) await admin.query(q);
  const a = corpus.articles;
  for (let i = 0; i < a.length; i += LOAD_BATCH) {
    const batch = a.slice(i, i + LOAD_BATCH);
    await admin.query(sql.insert, [batch.map((x) => x.id), batch.map((x) => x.title), batch.map((x) => x.body)]);
  }
  // Ids were given explicitly: the serial's sequence continues after them, as if the rows had been inserted one by one.
  if (a.length) await admin.query(`SELECT setval(pg_get_serial_sequence('${sql.table}', 'id'), $1)`, [a.length]);
  for (const q of sql.afterLoad) await admin.query(q);
  await admin.query(`VACUUM ANALYZE ${sql.table}`);
}

/**
 * What the target holds against what the generator made: the row count, the checksum, and for each term the
 * articles the variant's predicate finds (through its index, sequential scans off) against those the term was
 * injected into. Returns the problems found (none: the corpus is the seeded one and the variant finds what it
 * must). A broken index, a trigger that did not run or an edited article each show here.
 */
export async function verifyCorpus(admin: pg.Client, sql: ReturnType<typeof searchSql>, corpus: CorpusFacts, variant: SearchVariant): Promise<string[]> {
  const problems: string[] = [];
  const c = await admin.query<{ n: number | string; md5: string }>(sql.checksum);
  const n = Number(c.rows[0].n);
  if (n !== corpus.size) problems.push(`the articles table holds ${n} rows, not the ${corpus.size} of the seeded corpus`);
  else if (c.rows[0].md5 !== corpus.checksum)
    problems.push(`the articles differ from the seeded corpus (md5 ${c.rows[0].md5}, expected ${corpus.checksum}): an article was edited`);
  await admin.query("BEGIN");
  try {
    await admin.query("SET LOCAL enable_seqscan = off");
    for (const [term, expected] of corpus.matches) {
      const r = await admin.query<{ ids: unknown }>(sql.matching, [sql.param(term)]);
      const found = parseIds(r.rows[0].ids);
      const want = new Set(expected);
      const missing = expected.filter((id) => !found.has(id));
      const extra = [...found].filter((id) => !want.has(id));
      if (missing.length || extra.length)
        problems.push(
          `"${term}": the ${variant} search finds ${countWords(found.size, "article")}, the corpus has it in ${expected.length}` +
            `${missing.length ? `; missing ids ${listed(missing)}` : ""}${extra.length ? `; unexpected ids ${listed(extra)}` : ""}`,
        );
    }
  } finally {
    await admin.query("ROLLBACK");
  }
  return problems;
}

/** An int[] as node-postgres gives it: a parsed array, or its text form "{1,2,3}" on a raw-types client. */
function parseIds(v: unknown): Set<number> {
  if (v === null || v === undefined) return new Set();
  if (Array.isArray(v)) return new Set(v.map(Number));
  const s = String(v).replace(/[{}]/g, "");
  return new Set(s ? s.split(",").map(Number) : []);
}

const listed = (ids: number[]) => `${ids.slice(0, 5).join(", ")}${ids.length > 5 ? `, … (${ids.length})` : ""}`;
