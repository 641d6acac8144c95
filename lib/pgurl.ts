// Connection strings: masking for display, and a one-line explanation of a failed connection.

/** Replaces the password of a postgres URL (or key=value DSN) with ****. Never throws. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "****";
    return u.toString();
  } catch {
    return url.replace(/(password\s*=\s*)(\S+)/gi, "$1****").replace(/(\/\/[^:/@]+:)[^@]*@/, "$1****@");
  }
}

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
    return `${u.hostname}${u.port ? ":" + u.port : ""}${u.pathname}`;
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
