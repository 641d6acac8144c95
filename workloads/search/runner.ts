// Search (server-only): loads the seeded corpus into the variant's table, then each request searches for one
// term drawn uniformly from the configured terms, through the Yong driver's pool (workloads/yong/driver.ts).
// Every answer's row count is checked against what the generator put in the corpus (baseline: every match;
// modded: at most 20), and verification proves the target holds the seeded corpus and that the variant's
// predicate finds exactly the articles each term was put into.
import type pg from "pg";
import type { TargetClient } from "../../runner/core";
import { inDoubtFact, type Ledger, type WorkloadContext } from "../runtime";
import { yongModule, type YongRequest, type YongWorkload } from "../yong/driver";
import { type Corpus, generateCorpus } from "./corpus";
import { MODDED_LIMIT, parseTerms, type SearchConfig } from "./definition";
import { type CorpusFacts, loadCorpus, searchSql, verifyCorpus } from "./sql";

class SearchWorkload implements YongWorkload {
  readonly notes: string[] = [];
  readonly vus: number;
  private readonly terms: string[];
  private readonly sql: ReturnType<typeof searchSql>;
  /** Per term: how many articles hold it, and how many rows its query must return. */
  private readonly expected = new Map<string, { matches: number; rows: number }>();
  private corpus: CorpusFacts = { size: 0, checksum: "", matches: new Map() };
  /** Answers whose row count was not what the corpus says, the first few described. */
  private wrongAnswers = 0;
  private readonly wrongExamples: string[] = [];
  private rowsMin = Number.POSITIVE_INFINITY;
  private rowsMax = 0;
  /** Searches answered and rows they returned: this instance's own record (verify never reads ctx.stats). */
  private searches = 0;
  private rows = 0;

  constructor(private readonly ctx: WorkloadContext<SearchConfig>) {
    const c = ctx.config;
    this.vus = c.vus;
    const t = parseTerms(c.terms);
    if (!t.ok) throw new Error(t.message); // the schema refused it already
    this.terms = t.terms;
    const trigram = c.trigram && c.variant === "baseline";
    if (c.trigram && c.variant === "modded") this.notes.push("pg_trgm indexes were not built: the option applies to the baseline (ILIKE) only");
    this.sql = searchSql(ctx.schema, c.variant, trigram);
  }

  async setup(admin: pg.Client) {
    const c = this.ctx.config;
    if (c.trigram && c.variant === "baseline") {
      // Created for the run if missing, and then dropped after it (runner/core/footprint.ts).
      const t = await this.ctx.footprint.holdExtension(admin, "pg_trgm");
      if (!t.ok)
        throw new Error(`the indexed baseline needs pg_trgm, but ${t.why}. Run without the pg_trgm option (--trigram), or install the extension on the target`);
      this.notes.push("baseline served by pg_trgm GIN indexes on title and body (the fair indexed comparison, not the article's)");
    }
    const t0 = Date.now();
    const corpus = generateCorpus(c.articles, this.terms);
    await loadCorpus(admin, this.sql, corpus);
    this.ctx.log(
      `loaded ${c.articles.toLocaleString("en-US")} articles (${(corpus.bytes / 1048576).toFixed(1)} MiB of text) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    this.learn(corpus);
  }

  /** Keeps what verification and the answers' checks need, not the articles. */
  private learn(corpus: Corpus) {
    const c = this.ctx.config;
    this.corpus = { size: corpus.articles.length, checksum: corpus.checksum, matches: corpus.matches };
    for (const [term, ids] of corpus.matches)
      this.expected.set(term, { matches: ids.length, rows: c.variant === "modded" ? Math.min(MODDED_LIMIT, ids.length) : ids.length });
  }

  /** A part of a run over several processes did not load the corpus (the coordinator did): it generates the same
   *  one (seeded) to know what each term must return, before its first request. */
  async startOwn() {
    if (this.ctx.part && this.expected.size === 0) this.learn(generateCorpus(this.ctx.config.articles, this.terms));
  }

  ledger(): Ledger {
    const { searches, rows, rowsMin, rowsMax, wrongAnswers, wrongExamples } = this;
    return { searches, rows, rowsMin: searches ? rowsMin : null, rowsMax, wrongAnswers, wrongExamples };
  }

  absorb(ledgers: readonly Ledger[]) {
    for (const l of ledgers) {
      this.searches += Number(l.searches);
      this.rows += Number(l.rows);
      if (l.rowsMin !== null) this.rowsMin = Math.min(this.rowsMin, Number(l.rowsMin));
      this.rowsMax = Math.max(this.rowsMax, Number(l.rowsMax));
      this.wrongAnswers += Number(l.wrongAnswers);
      for (const e of l.wrongExamples as string[]) if (this.wrongExamples.length < 3) this.wrongExamples.push(e);
    }
  }

  next(): YongRequest {
    const term = this.terms[Math.floor(Math.random() * this.terms.length)];
    return { op: "search", run: (tc) => this.search(tc, term) };
  }

  private async search(tc: TargetClient, term: string) {
    const r = await tc.client.query({ name: "search", text: this.sql.query, values: [this.sql.param(term)] });
    const rows = r.rows.length;
    this.ctx.stats.op("rows").done(rows);
    this.searches++;
    this.rows += rows;
    if (rows < this.rowsMin) this.rowsMin = rows;
    if (rows > this.rowsMax) this.rowsMax = rows;
    const want = this.expected.get(term)!.rows;
    if (rows !== want) {
      this.wrongAnswers++;
      if (this.wrongExamples.length < 3) this.wrongExamples.push(`"${term}" returned ${rows} rows, not ${want}`);
    }
  }

  async verify(admin: pg.Client) {
    const v = this.ctx.config.variant;
    const problems = await verifyCorpus(admin, this.sql, this.corpus, v);
    if (this.wrongAnswers)
      problems.push(
        `${this.wrongAnswers.toLocaleString("en-US")} search(es) returned a row count the corpus does not explain (${this.wrongExamples.join("; ")})`,
      );
    const { searches, rows } = this;
    if (searches)
      this.notes.push(
        `rows returned per search: ${(rows / searches).toFixed(1)} on average (${this.rowsMin}-${this.rowsMax}); ${
          v === "modded"
            ? `the modded query returns at most ${MODDED_LIMIT} (id, title, rank) rows`
            : "the baseline returns every matching article with its body"
        }`,
      );

    const corpusHeld = !problems.some((p) => p.startsWith("the articles table holds"));
    return {
      ok: problems.length === 0,
      checked: this.corpus.size,
      problems,
      facts: [
        { name: "the articles table holds the corpus", value: corpusHeld, ok: corpusHeld },
        { name: "terms whose matches were checked", value: this.corpus.matches.size, ok: true },
        { name: "searches with a row count the corpus does not explain", value: this.wrongAnswers, ok: this.wrongAnswers === 0 },
        // A run whose loops reconnect: a search only reads, so none is ever in doubt (stated, as every such run does).
        ...(this.ctx.reconnect ? [inDoubtFact(0)] : []),
      ],
    };
  }
}

export const search = yongModule<SearchConfig>("search", (ctx) => new SearchWorkload(ctx));
