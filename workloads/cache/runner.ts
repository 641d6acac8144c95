// Cache: the article's cache_entries table (logged or UNLOGGED), prefilled with every key, then gets and sets
// as single autocommit statements (the article does not show its own).
//
// Verification. Every set writes a value carrying its own write id ("w") and its key's index ("id"). The
// runner remembers, per key, the sets that may be the key's final value: a set that completed is superseded
// by any set of that key that started after it completed (it committed later), so only sets overlapping the
// last one stay candidates. At the end every key must be in the table exactly once with a candidate's value,
// nothing else may be there, and gets must have hit (no key can have expired while the run is shorter than
// the TTL) with values of the key they asked for.
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { type TargetClient, clock } from "../../runner/core";
import { inDoubtFact, type Ledger, type WorkloadContext, type WorkloadVerification } from "../runtime";
import { type YongRequest, type YongWorkload, yongModule, ZipfSampler } from "../yong/driver";
import type { CacheConfig } from "./definition";
import { agree, countWords } from "../../lib/words";

export const cacheSql = (s: string, unlogged: boolean) => ({
  create: `CREATE ${unlogged ? "UNLOGGED " : ""}TABLE ${s}.cache_entries (key TEXT PRIMARY KEY, value JSONB NOT NULL, expires_at TIMESTAMPTZ)`,
  get: `SELECT value FROM ${s}.cache_entries WHERE key = $1 AND (expires_at IS NULL OR expires_at > now())`,
  set: `INSERT INTO ${s}.cache_entries (key, value, expires_at) VALUES ($1, $2::jsonb, now() + make_interval(secs => $3))
        ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
});

/** "cache:00042": five digits as the article's key space, more when the key count needs them. */
export const keyWidth = (keys: number) => Math.max(5, String(keys - 1).length);
export const keyName = (i: number, width: number) => `cache:${String(i).padStart(width, "0")}`;

/** The JSON value of write `w` of key `id`: random characters padded so the text is `bytes` long. */
export function cacheValue(id: number, w: number, bytes: number, random: string): string {
  const head = `{"id":${id},"w":${w},"ts":${Date.now()},"data":"`;
  const n = Math.max(0, bytes - head.length - 2);
  const at = Math.floor(Math.random() * (random.length - n));
  return `${head}${random.substring(at, at + n)}"}`;
}

/** A completed set that may still be its key's final value: its write id and when it started and ended. */
interface Candidate {
  w: number;
  start: number;
  end: number;
}

const ID_RE = /"id": (\d+)/;

/**
 * Across processes, a set is taken as superseded only when another started this long after it ended: each part's
 * clock is corrected to the coordinator's within a fraction of this, so a candidate is never dropped wrongly.
 */
export const CROSS_PART_MARGIN_MS = 20;

/** A part's cache ledger: its request counts, and per key it set, the candidates it keeps ([w, start, end]). */
interface CacheLedger {
  gets: number;
  sets: number;
  misses: number;
  otherKeyGets: number;
  getsOfOtherKeys: string[];
  candidates: [number, [number, number, number][]][];
}

class CacheWorkload implements YongWorkload {
  readonly notes: string[] = [];
  readonly vus: number;
  private readonly sql: ReturnType<typeof cacheSql>;
  private readonly width: number;
  private readonly zipf: ZipfSampler | null;
  /** Random characters values are cut from (base64 of random bytes: valid in a JSON string as is). */
  private readonly random: string;
  /** Per key: the completed sets that may be its final value (index 0 of each: the prefill, write 0). */
  private readonly candidates: Candidate[][];
  /** Write ids: part i of N writes i + 1, i + 1 + N, … so no two parts write the same id (1, 2, … alone). */
  private nextW: number;
  private readonly wStep: number;
  private prefilledAt = 0;
  private readonly getsOfOtherKeys: string[] = [];
  private otherKeyGets = 0;
  /** Successful requests and missed gets: this instance's own record (verify never reads ctx.stats). */
  private gets = 0;
  private sets = 0;
  /** Sets whose reply was lost with their connection (a kill-backend phase): each a possible final value, or not. */
  private doubtSets = 0;
  private misses = 0;

  constructor(private readonly ctx: WorkloadContext<CacheConfig>) {
    const c = ctx.config;
    this.sql = cacheSql(ctx.schema, c.variant === "modded");
    this.vus = c.vus;
    this.width = keyWidth(c.keys);
    this.zipf = c.distribution === "zipf" ? new ZipfSampler(c.keys) : null;
    this.random = randomBytes(Math.ceil(((c.valueBytes + 1024) * 3) / 4)).toString("base64");
    this.candidates = Array.from({ length: c.keys }, () => []);
    this.nextW = 1 + (ctx.part?.index ?? 0);
    this.wStep = ctx.part?.of ?? 1;
  }

  async setup(admin: pg.Client) {
    const c = this.ctx.config;
    await admin.query(this.sql.create);
    // Every key, in one statement: values as the runner's own (write 0), random data of the same size.
    const head = `{"id":0,"w":0,"ts":${Date.now()},"data":""}`.length;
    await admin.query(
      `INSERT INTO ${this.ctx.schema}.cache_entries (key, value, expires_at)
       SELECT 'cache:' || lpad(i::text, $2, '0'),
              jsonb_build_object('id', i, 'w', 0, 'ts', $3::bigint, 'data', left(repeat(md5(i::text), ($4 / 32) + 1), $4)),
              now() + make_interval(secs => $5)
       FROM generate_series(0, $1 - 1) i`,
      [c.keys, this.width, Date.now(), Math.max(0, c.valueBytes - head), c.ttlSeconds],
    );
    await admin.query(`ANALYZE ${this.ctx.schema}.cache_entries`);
    this.prefilledAt = clock();
    for (const list of this.candidates) list.push({ w: 0, start: this.prefilledAt, end: this.prefilledAt });
  }

  private pickKey(): number {
    return this.zipf ? this.zipf.next() : Math.floor(Math.random() * this.ctx.config.keys);
  }

  next(): YongRequest {
    const c = this.ctx.config;
    const k = this.pickKey();
    const key = keyName(k, this.width);
    if (Math.random() * 100 < c.readPercent) {
      return {
        op: "get",
        run: async (tc: TargetClient) => {
          const r = await tc.client.query<{ value: string }>({ name: "cache_get", text: this.sql.get, values: [key] });
          const row = r.rows[0];
          this.gets++;
          if (!row) {
            this.misses++;
            this.ctx.stats.op("miss").done();
            return;
          }
          const m = ID_RE.exec(row.value);
          if (!m || Number(m[1]) !== k) {
            this.otherKeyGets++;
            if (this.getsOfOtherKeys.length < 3) this.getsOfOtherKeys.push(`${key} → ${row.value.slice(0, 60)}`);
          }
        },
      };
    }
    const w = this.nextW;
    this.nextW += this.wStep;
    const value = cacheValue(k, w, c.valueBytes, this.random);
    let start = 0;
    return {
      op: "set",
      // Its reply lost: it may have set the key, at any time up to now, or not. A possible final value that takes
      // no earlier one off the list (they stay possible, were it not set); a set that starts later takes it off.
      inDoubt: () => {
        this.doubtSets++;
        this.candidates[k].push({ w, start, end: clock() });
      },
      run: async (tc: TargetClient) => {
        start = clock();
        await tc.client.query({ name: "cache_set", text: this.sql.set, values: [key, value, c.ttlSeconds] });
        const end = clock();
        this.sets++;
        // Sets that completed before this one started committed before it: no longer a possible final value.
        const list = this.candidates[k].filter((x) => x.end >= start);
        list.push({ w, start, end });
        this.candidates[k] = list;
      },
    };
  }

  ledger(): Ledger {
    const candidates: CacheLedger["candidates"] = [];
    this.candidates.forEach((list, k) => {
      if (list.length) candidates.push([k, list.map((x) => [x.w, x.start, x.end])]);
    });
    const l: CacheLedger = {
      gets: this.gets,
      sets: this.sets,
      misses: this.misses,
      otherKeyGets: this.otherKeyGets,
      getsOfOtherKeys: this.getsOfOtherKeys,
      candidates,
    };
    return l as unknown as Ledger;
  }

  /** Every part's counts and candidates; a candidate stays unless a set of its key by any part started after it
   *  ended (by more than CROSS_PART_MARGIN_MS: clocks of processes agree only that closely). */
  absorb(ledgers: readonly Ledger[]) {
    for (const raw of ledgers) {
      const l = raw as unknown as CacheLedger;
      this.gets += l.gets;
      this.sets += l.sets;
      this.misses += l.misses;
      this.otherKeyGets += l.otherKeyGets;
      for (const e of l.getsOfOtherKeys) if (this.getsOfOtherKeys.length < 3) this.getsOfOtherKeys.push(e);
      for (const [k, list] of l.candidates) this.candidates[k].push(...list.map(([w, start, end]) => ({ w, start, end })));
    }
    this.candidates.forEach((list, k) => {
      const latestStart = Math.max(...list.map((x) => x.start));
      this.candidates[k] = list.filter((x) => x.end + CROSS_PART_MARGIN_MS >= latestStart);
    });
  }

  async verify(admin: pg.Client): Promise<WorkloadVerification> {
    const c = this.ctx.config;
    const problems: string[] = [];
    const r = await admin.query<{ key: string; id: string | null; w: string | null }>(
      `SELECT key, value->>'id' AS id, value->>'w' AS w FROM ${this.ctx.schema}.cache_entries`,
    );
    const seen = new Uint8Array(c.keys);
    let foreign = 0;
    let wrongValue = 0;
    const examples: string[] = [];
    for (const row of r.rows) {
      const m = /^cache:(\d+)$/.exec(row.key);
      const k = m && m[1].length === this.width ? Number(m[1]) : -1;
      if (k < 0 || k >= c.keys || Number(row.id) !== k) {
        foreign++;
        continue;
      }
      seen[k] = 1;
      const w = Number(row.w);
      if (row.w === null || !this.candidates[k].some((x) => x.w === w)) {
        wrongValue++;
        if (examples.length < 3) examples.push(`${row.key} holds write ${row.w ?? "(none)"}, expected ${this.candidates[k].map((x) => x.w).join(" or ")}`);
      }
    }
    const lost = seen.reduce((n, s) => n + (s ? 0 : 1), 0);
    if (lost) problems.push(`${countWords(lost, "key")} missing from cache_entries (every key was prefilled and sets only ever overwrite)`);
    if (foreign) problems.push(`${countWords(foreign, "row")} in cache_entries that ${agree(foreign, "are", "is")} not one of this run's keys`);
    if (wrongValue)
      problems.push(
        `${countWords(wrongValue, "key")} ${agree(wrongValue, "hold", "holds")} a value that is not the last set the runner committed for them: ${examples.join("; ")}`,
      );
    if (this.otherKeyGets) problems.push(`${countWords(this.otherKeyGets, "get")} returned another key's value: ${this.getsOfOtherKeys.join("; ")}`);
    const misses = this.misses;
    // Nothing can expire while the run is shorter than the TTL: every get of a prefilled key must hit.
    const ranMs = clock() - this.prefilledAt;
    if (ranMs < c.ttlSeconds * 1000) {
      if (misses) problems.push(`${countWords(misses, "get")} missed, though every key was prefilled and none can have expired (TTL ${c.ttlSeconds} s)`);
    } else if (misses) this.notes.push(`${countWords(misses, "get")} missed: keys not set again within the ${c.ttlSeconds} s TTL expired`);
    const { sets, gets } = this;
    const countsMatch = r.rows.length === c.keys && lost === 0 && foreign === 0 && wrongValue === 0;
    return {
      ok: problems.length === 0,
      checked: sets + gets,
      problems,
      facts: [
        { name: "keys missing", value: lost, ok: lost === 0 },
        { name: "keys with a value no set wrote", value: wrongValue, ok: wrongValue === 0 },
        { name: "keys no set made", value: foreign, ok: foreign === 0 },
        { name: "the table holds every key", value: countsMatch, ok: countsMatch },
        // A run whose loops reconnect states how many sets were in doubt (each accepted as set or not), 0 included.
        ...(this.ctx.reconnect ? [inDoubtFact(this.doubtSets)] : []),
      ],
    };
  }
}

export const cache = yongModule<CacheConfig>("cache", (ctx) => new CacheWorkload(ctx));
