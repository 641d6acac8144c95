// A /compare view as it is held in the URL, so that a link reproduces it: parsing and writing the query, the link
// itself, and the origin a request was made to.
import type { Metric } from "./comparable";
import { METRICS } from "./metrics";

/** Everything a /compare view shows, as it is held in the URL so a link reproduces it. */
export interface ViewState {
  ids: string[];
  base: string | null;
  /** Differences-only in the config table. */
  diff: boolean;
  /** Log scale on the latency charts. */
  log: boolean;
  /** Metric of the latency distribution and over-time charts. */
  metric: Metric;
  /** Percentile of the latency-over-time chart. */
  pct: "p50" | "p95" | "p99" | "max";
}

const ID_RE = /^(r_[A-Za-z0-9_-]+|imp_[A-Za-z0-9_-]+|ref:[a-z0-9-]+)$/;

export function parseViewState(sp: Record<string, string | string[] | undefined> | URLSearchParams): ViewState {
  const get = (k: string) => {
    const v = sp instanceof URLSearchParams ? sp.get(k) : sp[k];
    return (Array.isArray(v) ? v[0] : v) ?? null;
  };
  const ids = distinct(
    (get("ids") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s && ID_RE.test(s)),
  );
  const base = get("base");
  const metric = get("m");
  const pct = get("p");
  return {
    ids,
    base: base && ids.includes(base) ? base : null,
    diff: get("diff") === "1",
    log: get("log") !== "0",
    metric: metric && METRICS().includes(metric) ? metric : "e2e",
    pct: pct === "p50" || pct === "p95" || pct === "p99" || pct === "max" ? pct : "p99",
  };
}

/** The query string for a view (stable order, defaults left out), without "?". */
export function viewQuery(v: ViewState): string {
  const q = new URLSearchParams();
  if (v.ids.length) q.set("ids", v.ids.join(","));
  if (v.base) q.set("base", v.base);
  if (v.diff) q.set("diff", "1");
  if (!v.log) q.set("log", "0");
  if (v.metric !== "e2e") q.set("m", v.metric);
  if (v.pct !== "p99") q.set("p", v.pct);
  return q.toString().replace(/%2C/g, ",").replace(/%3A/g, ":");
}

/**
 * The link to a /compare view: what "Copy link" copies and what the exports print as their link, from this one
 * function. `origin` is where the browser reached the app (see requestOrigin), never a guessed host name.
 */
export function compareUrl(origin: string, v: ViewState): string {
  const q = viewQuery(v);
  return `${origin}/compare${q ? `?${q}` : ""}`;
}

/**
 * The origin a request was made to, as the browser wrote it: its Host header (or a proxy's X-Forwarded-Host),
 * not the URL the route handler is given, whose host can be another name for the server (localhost, while the
 * app listens on 127.0.0.1 only, so a link built from it would not open).
 */
export function requestOrigin(req: { url: string; headers: { get(name: string): string | null } }): string {
  const url = new URL(req.url);
  const first = (v: string | null) => v?.split(",")[0].trim() || null;
  const host = first(req.headers.get("x-forwarded-host")) ?? first(req.headers.get("host")) ?? url.host;
  const proto = first(req.headers.get("x-forwarded-proto")) ?? url.protocol.replace(/:$/, "");
  return `${proto}://${host}`;
}

export function isValidKey(k: string): boolean {
  return ID_RE.test(k);
}

const distinct = <T>(xs: T[]) => [...new Set(xs)];
