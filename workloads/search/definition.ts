// Search, Yong's full-text scenario (browser-safe): ILIKE over a seeded corpus (baseline) against tsvector +
// GIN + trigger (modded), its field table, presets and the article's published figures. The SQL, the corpus
// and the verification are in sql.ts, corpus.ts and runner.ts beside this (server-only).
import type { z } from "zod";
import { plural, fieldTable } from "../fields";
import { defineWorkload, type PublishedResult } from "../types";
import {
  loadField,
  loadModelWords,
  loadParts,
  poolField,
  rateField,
  requestOperations,
  thinkField,
  timingFields,
  type Variant,
  variantField,
  vusField,
  YONG,
  type YongCommon,
  yongParams,
  yongPacing,
  yongParts,
  yongRateKnob,
} from "../yong/fields";

/** The reference's proposed terms (the article names only "postgresql"), one drawn uniformly per request. */
export const DEFAULT_TERMS = ["postgresql", "database", "index", "query", "performance", "replication", "transaction", "cache", "queue", "search"];
export const MAX_TERMS = 20;
/** Articles of the corpus by default: the article's 10,000. */
export const DEFAULT_ARTICLES = 10_000;
/** Think time reproducing the modded 500-VU run's 675 req/s: 500 / 675 = 741 ms per iteration, less its 3.76 ms average. */
export const SEARCH_THINK_MS = 737;
/** Average bytes of a generated article (title + body), measured on the default corpus (23.3 MB / 10,000). */
export const ARTICLE_BYTES = 2_330;
/** The baseline returns each match in full; the modded query at most this many (id, title, rank) rows. */
export const MODDED_LIMIT = 20;

/** "postgresql,database" → the terms, or the problem with them (words of 3-30 lower-case letters, none inside another). */
export function parseTerms(text: string): { ok: true; terms: string[] } | { ok: false; message: string } {
  const terms = text
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  if (!terms.length) return { ok: false, message: "Terms must name at least one word" };
  if (terms.length > MAX_TERMS) return { ok: false, message: `Terms must be at most ${MAX_TERMS} words (got ${terms.length})` };
  const bad = terms.find((t) => !/^[a-z]{3,30}$/.test(t));
  if (bad) return { ok: false, message: `Terms must be words of 3 to 30 lower-case letters a-z, separated by commas: "${bad}" is not` };
  const dup = terms.find((t, i) => terms.indexOf(t) !== i);
  if (dup) return { ok: false, message: `Terms must differ: "${dup}" is named twice` };
  // ILIKE '%data%' would also find every article holding "database": both variants must find the same articles.
  for (const a of terms)
    for (const b of terms) if (a !== b && b.includes(a)) return { ok: false, message: `Terms must not contain one another: "${b}" contains "${a}"` };
  return { ok: true, terms };
}

const FIELDS = fieldTable([
  variantField(
    "ILIKE '%term%' on title and body: a sequential scan returning every match",
    "tsvector kept by a trigger, GIN index, plainto_tsquery + ts_rank, top 20",
  ),
  loadField,
  vusField({ default: 500 }),
  thinkField(SEARCH_THINK_MS),
  rateField,
  poolField,
  {
    name: "articles",
    label: "Articles",
    unit: "articles",
    hint: "generated corpus (seed 42), about 2.3 KB each; loaded before the run",
    control: "int",
    min: 100,
    max: 1_000_000,
    default: DEFAULT_ARTICLES,
    group: "batches",
    cli: { flag: "articles", ours: true, help: `articles in the generated corpus (default ${DEFAULT_ARTICLES.toLocaleString("en-US")})` },
    compareLabel: "Articles",
  },
  {
    name: "terms",
    label: "Terms",
    hint: "comma-separated words searched for, one per request; each is put into about 2 % of the articles",
    control: "text",
    default: DEFAULT_TERMS.join(","),
    group: "batches",
    cli: { flag: "terms", ours: true, help: `comma-separated search terms (default ${DEFAULT_TERMS.join(",")})` },
    compareLabel: "Terms",
  },
  {
    name: "trigram",
    label: "Indexed baseline (pg_trgm)",
    hint: "baseline only: GIN trigram indexes that ILIKE can use, the fair indexed comparison (not the article's)",
    control: "bool",
    default: false,
    group: "batches",
    cli: { flag: "trigram", ours: true, help: "baseline only: serve ILIKE from pg_trgm GIN indexes (needs the pg_trgm extension)" },
    compareLabel: "pg_trgm indexes",
  },
  ...timingFields,
]);

export const SearchParams = yongParams("search", FIELDS, ["vus"]).superRefine((c, ctx) => {
  const t = parseTerms(c.terms);
  if (!t.ok) ctx.addIssue({ code: "custom", path: ["terms"], message: t.message });
});
export type SearchConfig = z.output<typeof SearchParams>;

const terms = (c: SearchConfig) => c.terms.split(",").filter(Boolean);

const caveats = {
  shapes: {
    by: "found" as const,
    text: "The two queries return different things: the baseline's SELECT * returns every matching article with its body (no LIMIT, no ranking), the modded query at most 20 (id, title, rank) rows; response size and serialisation differ, not only the access path. Ours records rows returned per query for both.",
  },
  cpu: {
    by: "found" as const,
    text: "ILIKE '%term%' cannot use a btree index: every baseline request is a sequential scan, so with 2 CPUs and 500 VUs the baseline is CPU-bound; a pg_trgm GIN index would be the fair indexed comparison (our --trigram option).",
  },
  rank: { by: "found" as const, text: "ts_rank is computed for every match before the LIMIT: common terms cost more than rare ones." },
  corpus: {
    by: "found" as const,
    text: "The article gives neither its corpus nor its terms: ours is generated (seed 42, 150-400 Zipf-distributed words per article, each of 10 terms in about 2 % of the articles, about 23 MB).",
  },
  gin: { by: "author" as const, text: 'The article explains the gain as "GIN lookup is O(log n)" (the author\'s claim).' },
};

function published(
  id: string,
  variant: Variant,
  stress: boolean,
  figures: { p50: number; p95: number; avg?: number; rps: number; total?: number },
): PublishedResult {
  const config = { kind: "search", variant, load: "vus", vus: 500, thinkMs: stress ? 0 : SEARCH_THINK_MS, durationSeconds: stress ? 90 : 60, warmupSeconds: 0 };
  const derived = stress
    ? [
        `ours: the run lasted about 90 s (${figures.total!.toLocaleString("en-US")} requests / ${figures.rps.toLocaleString("en-US")} req/s = ${(figures.total! / figures.rps).toFixed(2)} s)`,
        `ours: closed loop without sleep, so mean latency ≈ VUs / rate = 500 / ${figures.rps} = ${((500 / figures.rps) * 1000).toFixed(0)} ms`,
      ]
    : [
        `ours: 500 VUs / ${figures.rps} req/s = ${((500 / figures.rps) * 1000).toFixed(0)} ms per iteration, so each iteration holds think time (the preset's ${SEARCH_THINK_MS} ms reproduces the modded rate)`,
      ];
  return {
    id,
    study: "yong",
    title: `Search, 500 VUs${stress ? " no sleep" : ""}, ${variant} (${variant === "baseline" ? "ILIKE" : "tsvector + GIN"})`,
    source: YONG.source(`full-text search table${stress ? " (stress, no sleep)" : ""}`),
    config,
    durationSeconds: stress ? 90 : undefined,
    rates: { search: figures.rps, total: figures.rps },
    latencyMs: { total: { p50: figures.p50, p95: figures.p95, ...(figures.avg !== undefined ? { avg: figures.avg } : {}) } },
    ...(figures.total ? { totals: { total: figures.total } } : {}),
    measuredThrough: YONG.measuredThrough,
    loadModel: loadModelWords(config as unknown as YongCommon, 500),
    server: YONG.server,
    derived,
    caveats: [YONG.caveats.http, caveats.shapes, caveats.cpu, caveats.rank, caveats.corpus, caveats.gin, ...(stress ? [] : [YONG.caveats.thinkTime])],
  };
}

export const SEARCH_PUBLISHED: PublishedResult[] = [
  published("yong-search-500vu-baseline", "baseline", false, { p50: 1.96, p95: 101.83, avg: 25.22, rps: 561 }),
  published("yong-search-500vu-modded", "modded", false, { p50: 2.76, p95: 10.39, avg: 3.76, rps: 675 }),
  published("yong-search-500vu-nosleep-baseline", "baseline", true, { p50: 599, p95: 1000, rps: 558, total: 50_212 }),
  published("yong-search-500vu-nosleep-modded", "modded", true, { p50: 209, p95: 396, rps: 1441, total: 129_679 }),
];

export const search = defineWorkload({
  kind: "search",
  title: "search",
  purpose: "Full-text search: ILIKE scans or tsvector + GIN over a generated corpus",
  description: "Yong's full-text search: ILIKE over a generated corpus (baseline) or tsvector + GIN + trigger (modded).",
  params: SearchParams,
  fields: FIELDS,
  defaultPresetId: "search-500vu-modded",
  presets: SEARCH_PUBLISHED.map((p) => ({
    id: p.id.replace(/^yong-/, ""),
    label: `${p.title} (published)`,
    description: `${p.loadModel}, ${p.durationSeconds ?? 60} s, 10,000 articles.`,
    referenceId: p.id,
    config: p.config as never,
  })),
  describe: (c) => [
    ...loadParts(c, plural(c.vus, "VU")),
    plural(c.articles, "article"),
    ...(c.terms === DEFAULT_TERMS.join(",") ? [] : [plural(terms(c).length, "term")]),
    ...(c.trigram && c.variant === "baseline" ? ["pg_trgm indexes"] : []),
  ],
  shortName: (c) => `search ${c.variant}${c.trigram && c.variant === "baseline" ? " trgm" : ""}`,
  clients: (c) => c.pool,
  clientsFormula: "pool",
  // The generated corpus while it is loaded (its text and the load's parameters), and each pool connection's
  // answer: the baseline returns every match in full (about 2 % of the articles), the modded query 20 short rows.
  clientMemory: (c) => [
    {
      bytes: c.articles * ARTICLE_BYTES * 3,
      words: `${plural(c.articles, "article")} × ${ARTICLE_BYTES.toLocaleString("en-US")} B × 3 (the generated corpus and a load batch's parameters)`,
      fields: ["articles"],
    },
    {
      bytes: c.variant === "baseline" ? c.pool * Math.ceil(c.articles * 0.02) * ARTICLE_BYTES * 3 : c.pool * MODDED_LIMIT * 200,
      words:
        c.variant === "baseline"
          ? `pool ${c.pool} × ${Math.ceil(c.articles * 0.02).toLocaleString("en-US")} matching articles × ${ARTICLE_BYTES.toLocaleString("en-US")} B × 3 (the answer as received and as rows)`
          : `pool ${c.pool} × ${MODDED_LIMIT} rows × 200 B`,
      fields: ["articles", "pool"],
    },
  ],
  clientMemoryFormula: "articles × 2.3 KB × 3 + pool × each answer (baseline: 2 % of the articles in full)",
  rateKnob: yongRateKnob(),
  parts: yongParts((c: SearchConfig) => c.vus, "vus"),
  pacing: (c) => yongPacing(c, c.vus),
  verifiedUnit: "article",
  reconnects: "its pool's connections reconnect; a search in flight only reads, so nothing is in doubt",
  metrics: {
    operations: [
      ...requestOperations([{ name: "search", label: "search" }]),
      {
        name: "rows",
        label: "rows returned",
        unit: "row",
        rate: true,
        latency: false,
        errors: false,
        latencySample: "per row a search returned (baseline: every match with its body; modded: at most 20 short rows)",
      },
    ],
  },
  published: SEARCH_PUBLISHED,
});
