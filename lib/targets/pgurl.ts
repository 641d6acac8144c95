// Connection strings: masking for display, and a one-line explanation of a failed connection.

// Every libpq key that can carry a secret. libpq reads them from a URL's query string and from key=value
// connection strings alike, so both forms are masked with the same list.
const SECRET_KEYS = ["password", "sslpassword", "sslkey_password", "passfile_password"];
const SECRET_PARAM = new RegExp(`([?&](?:${SECRET_KEYS.join("|")})=)[^&#\\s]*`, "gi");
// key=value strings: password=secret, password = 'se cret', password='it\\'s'
// (a value the query-string pass already masked is left alone, so "?password=****#frag" keeps its fragment)
const SECRET_KV = new RegExp(`(\\b(?:${SECRET_KEYS.join("|")})\\s*=\\s*)(?!\\*{4}(?:[&#\\s]|$))('(?:[^'\\\\]|\\\\.)*'|[^\\s'&]+)`, "gi");
// postgres://user:secret@host (also inside a longer text, or a URL the URL parser refuses)
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]*@/gi;

/**
 * Replaces every secret a libpq connection string can carry with ****: the user-info password of a URL,
 * password= / sslpassword= query parameters, and key=value strings (host=h password=secret). Works on a
 * connection string or on any text holding one (an error message, a command line), so logs, refusals and
 * pages all use this one function. Never throws.
 */
export function maskUrl(text: string): string {
  if (!text) return text;
  return text
    .replace(URL_USERINFO, "$1****@")
    .replace(SECRET_PARAM, "$1****")
    .replace(SECRET_KV, (_m, key: string) => `${key}****`);
}

/** True when the text still holds a secret maskUrl would hide (tests and log guards use it). */
export const holdsSecret = (text: string): boolean => maskUrl(text) !== text;

/** Checks that a string is a postgres:// or postgresql:// URL. Returns a message or null. */
export function checkPgUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "is not a URL; expected postgresql://user:password@host:5432/database";
  }
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:")
    return `has scheme "${u.protocol.replace(/:$/, "")}"; expected postgresql://user:password@host:5432/database`;
  if (!u.hostname) return "has no host; expected postgresql://user:password@host:5432/database";
  if (!u.pathname || u.pathname === "/") return "names no database; add /<database> after the host";
  return null;
}

/** Host and database of a URL, for labels ("127.0.0.1:5432/app"). */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    return maskUrl(url);
  }
}

/** Turns a pg / network error into a short cause, e.g. "connection refused (ECONNREFUSED)". */
export function explainPgError(err: unknown): string {
  const e = err as { code?: string; message?: string; errors?: unknown[] };
  if (e && Array.isArray(e.errors) && e.errors.length) return explainPgError(e.errors[0]);
  const byCode: Record<string, string> = {
    ECONNREFUSED: "connection refused: is Postgres running on that host and port?",
    ENOTFOUND: "host name not found",
    EAI_AGAIN: "host name could not be resolved",
    ETIMEDOUT: "connection timed out",
    EHOSTUNREACH: "host unreachable",
    "28P01": "password authentication failed",
    "28000": "no pg_hba.conf entry or role not allowed to log in",
    "3D000": "database does not exist",
    "53300": "too many connections (max_connections reached)",
    "57P03": "the server is starting up or shutting down",
  };
  const code = e?.code;
  const msg = (e?.message ?? String(err)).split("\n")[0];
  if (code && byCode[code]) return `${byCode[code]} (${code})`;
  if (/timeout/i.test(msg)) return "connection timed out";
  return code ? `${msg} (${code})` : msg;
}
