// The search workload's corpus: generated, deterministic (a seeded PRNG), so every run on every target holds
// the same articles and verification can prove it (row count and checksum). Yong's article gives neither its
// corpus nor its terms; the defaults are this project's (docs/workloads-yong.md): titles of 6-12
// words, bodies of 150-400 words drawn Zipf-distributed from a 5,000-word vocabulary, and each search term
// injected into about 2 % of the articles (into the title a fifth of those times).
//
// The vocabulary is pronounceable made-up words that never contain a search term nor the first half of one.
// A Porter stem is (a near) prefix of its word, so no vocabulary word can match a term under ILIKE '%term%'
// nor under plainto_tsquery('english', term): each term's matching articles are exactly those it was injected
// into, for both variants, and the generator knows them (`matches`) without asking the database.
import { createHash } from "node:crypto";

export const CORPUS_SEED = 42;
export const VOCABULARY_SIZE = 5000;
/** Share of the articles each term is injected into. */
export const TERM_SHARE = 0.02;

/** mulberry32: a small, fast 32-bit PRNG; the same seed gives the same corpus on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = [
  "b",
  "c",
  "d",
  "f",
  "g",
  "h",
  "j",
  "k",
  "l",
  "m",
  "n",
  "p",
  "r",
  "s",
  "t",
  "v",
  "w",
  "z",
  "br",
  "ch",
  "cl",
  "dr",
  "fl",
  "gr",
  "pl",
  "pr",
  "sh",
  "st",
  "th",
  "tr",
];
const VOWELS = ["a", "e", "i", "o", "u", "ai", "ea", "io", "ou"];
const CODAS = ["", "", "", "n", "r", "s", "l", "m", "t", "nd", "st", "rk"];

/** The part of a term no vocabulary word may contain: its first half, at least 3 letters (covers its stem). */
const guardOf = (term: string) => term.slice(0, Math.max(3, Math.ceil(term.length / 2)));

/** `size` distinct made-up words, none containing a term or the first half of one. */
export function vocabulary(terms: readonly string[], size = VOCABULARY_SIZE, seed = CORPUS_SEED): string[] {
  const rnd = prng(seed ^ 0x5eed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const guards = terms.map(guardOf);
  const words = new Set<string>();
  while (words.size < size) {
    const syllables = 1 + Math.floor(rnd() * 3);
    let w = "";
    for (let i = 0; i < syllables; i++) w += pick(ONSETS) + pick(VOWELS) + pick(CODAS);
    if (w.length < 3 || guards.some((g) => w.includes(g))) continue;
    words.add(w);
  }
  return [...words];
}

/** Draws ranks 0..n-1 with probability ∝ 1/(rank+1)^s (Zipf), by binary search over the cumulative weights. */
function zipf(n: number, s: number, rnd: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / (k + 1) ** s;
  return () => {
    const x = rnd() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface Article {
  id: number;
  title: string;
  body: string;
}

export interface Corpus {
  articles: Article[];
  /** Per term: the ids of the articles it was injected into, ascending (what both variants must find). */
  matches: Map<string, number[]>;
  /** md5 of the articles as corpusChecksumSql computes it on the target. */
  checksum: string;
  bytes: number;
}

/**
 * The corpus of `size` articles (ids 1..size) with `terms` injected. Terms must be lower-case letters and
 * none may contain another (lib validation: see the search definition's terms field).
 */
export function generateCorpus(size: number, terms: readonly string[], seed = CORPUS_SEED): Corpus {
  const rnd = prng(seed);
  const words = vocabulary(terms, VOCABULARY_SIZE, seed);
  const draw = zipf(words.length, 1, rnd);
  const sentence = (n: number) => {
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) out[i] = words[draw()];
    return out;
  };
  const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const articles: Article[] = [];
  const matches = new Map<string, number[]>(terms.map((t) => [t, []]));
  const hash = createHash("md5");
  let bytes = 0;
  for (let id = 1; id <= size; id++) {
    const title = sentence(between(6, 12));
    const body = sentence(between(150, 400));
    // A slot holds one term at most: a second term written over the first would take it out of the article.
    const used: number[][] = [[], []];
    for (const term of terms) {
      if (rnd() >= TERM_SHARE) continue;
      // Bodies have at least 150 slots, more than there can be terms; a title may be full.
      const inTitle = rnd() < 0.2 && used[0].length < title.length;
      const into = inTitle ? title : body;
      const slots = used[inTitle ? 0 : 1];
      let at = Math.floor(rnd() * into.length);
      while (slots.includes(at)) at = (at + 1) % into.length;
      slots.push(at);
      into[at] = term;
      matches.get(term)!.push(id);
    }
    title[0] = title[0][0].toUpperCase() + title[0].slice(1);
    const a = { id, title: title.join(" "), body: `${body.join(" ")}.` };
    articles.push(a);
    // The same text corpusChecksumSql aggregates: id, tab, title, tab, body; rows joined by newlines.
    hash.update(`${id === 1 ? "" : "\n"}${id}\t${a.title}\t${a.body}`);
    bytes += a.title.length + a.body.length;
  }
  return { articles, matches, checksum: hash.digest("hex"), bytes };
}

/** Row count and md5 of the articles table, in the text generateCorpus hashes. */
export const corpusChecksumSql = (table: string) =>
  `SELECT count(*)::int AS n, coalesce(md5(string_agg(id::text || E'\\t' || title || E'\\t' || body, E'\\n' ORDER BY id)), '') AS md5 FROM ${table}`;
