// Connection strings: masking for display, labels, checks, and a one-line explanation of a failed connection.
//
// What is secret is decided by what the driver reads: node-postgres parses a URL with pg-connection-string,
// which decodes query keys (`?pass%77ord=` is `password`), takes the last of duplicated keys, and finds the host
// after the last `@` (`u:Part1@LeakTail@host`). So masking parses each URL with that same parser and hides the
// value of every secret field of the result, and every other value of those fields the text spells out.
import { statSync } from "node:fs";
import { parse } from "pg-connection-string";

/**
 * The parsed result's fields that hold a secret, by name in any case (`?PASSWORD=` is not read by the driver
 * but plainly holds one): password, sslpassword, the private key's file (sslkey, whose content the driver
 * reads), and anything named like a password or passphrase (sslkey_password, ...).
 */
const SECRET_FIELD = /^(?:password|sslpassword|sslkey)$|pass(?:word|phrase)/i;
/**
 * Fields left out when the parser is asked what a URL holds: the files it would read (masking never reads a
 * file: a FIFO or /dev/zero would never end) and the SSL modes it warns or throws about. None names a secret's
 * value but sslkey, whose value is read from the query's entries.
 */
const FILE_FIELDS = ["sslcert", "sslkey", "sslrootcert"];
const UNREAD_FIELDS = [...FILE_FIELDS, "sslmode", "uselibpqcompat"];
const MASK = "****";
/** A value masked already, or nothing to hide. */
const isHidden = (v: string) => v === "" || /^\*+$/.test(v);
/**
 * A secret also hidden where the text repeats it outside its URL (an error naming the sslkey file, say) when it
 * has at least this many characters: a shorter one would mangle ordinary words and numbers around it.
 */
const MIN_REPEAT_LENGTH = 4;

// key=value strings (libpq's other form, in error messages, command lines): password=secret,
// password = 'se cret', password='it\\'s' (a value masked already is left alone, so "?password=****#frag" keeps
// its fragment)
const SECRET_KV = /(\b(?:\w*pass(?:word|phrase)\w*|sslkey)\s*=\s*)(?!\*{4}(?:[&#\s.,;:!?)\]}>]|$))('(?:[^'\\]|\\.)*'|[^\s'&]+)/gi;
// A URL inside a text: from its scheme to the next white space, and an opening quote just before it.
const URL_IN_TEXT = /(['"]?)(\b[a-z][a-z0-9+.-]*:\/\/\S+)/gi;
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** How the driver reads a URL: the parsed settings, every query entry (duplicates included), the user-info password. */
interface DriverReading {
  /** pg-connection-string's result (without the files it would read), or null when it refuses the string. */
  settings: Record<string, unknown> | null;
  /** The query's entries as the parser decodes them, duplicates included (the parser keeps the last). */
  entries: [string, string][];
  userinfoPassword: string;
}

/**
 * The URL object pg-connection-string's parse builds from a string: the first steps of its parse, kept the same
 * (spaces and stray % encoded, a host-less `@/` given a dummy host). Null when it throws, as parse would.
 */
function parserUrl(str: string): { url: URL; dummyHost: boolean } | null {
  try {
    const s = / |%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(str) ? encodeURI(str).replace(/%25(\d\d)/g, "%$1") : str;
    try {
      return { url: new URL(s, "postgres://base"), dummyHost: false };
    } catch {
      return { url: new URL(s.replace("@/", "@___DUMMY___/"), "postgres://base"), dummyHost: true };
    }
  } catch {
    return null;
  }
}

function decodeOr(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Reads a connection string as node-postgres does, never reading a file. Null when it is no URL at all. */
function readAsDriver(str: string): DriverReading | null {
  const built = parserUrl(str);
  if (!built) return null;
  const entries = [...built.url.searchParams];
  let settings: Record<string, unknown> | null = null;
  try {
    if (entries.some(([k]) => UNREAD_FIELDS.includes(k))) {
      // The same URL without those fields: their values are in `entries`, their files are never read.
      const copy = new URL(built.url.href);
      for (const k of UNREAD_FIELDS) copy.searchParams.delete(k);
      settings = parse(built.dummyHost ? copy.href.replace("@___DUMMY___/", "@/") : copy.href);
    } else settings = parse(str);
  } catch {
    settings = null;
  }
  return { settings, entries, userinfoPassword: decodeOr(built.url.password) };
}

/** The secrets a reading holds in clear: values of secret fields, of every duplicate, and the user-info password. */
function secretsOf(r: DriverReading): string[] {
  const out = r.entries.filter(([k, v]) => SECRET_FIELD.test(k) && !isHidden(v)).map(([, v]) => v);
  for (const [k, v] of Object.entries(r.settings ?? {})) if (SECRET_FIELD.test(k) && typeof v === "string" && !isHidden(v)) out.push(v);
  if (!isHidden(r.userinfoPassword)) out.push(r.userinfoPassword);
  return out;
}

/** The decoded key of one `key=value` query pair, as URLSearchParams (the parser's) decodes it. */
const queryKey = (pair: string): string => new URLSearchParams(pair).keys().next().value ?? pair;

/**
 * Replaces, in one URL's text, the user-info password (up to the last `@` of the authority, as the URL parser
 * reads it) and the value of every query pair whose decoded key is a secret field. Pushes the spellings hidden.
 */
function maskSpans(url: string, hidden: string[]): string {
  const scheme = SCHEME.exec(url)?.[0] ?? "";
  const rest = url.slice(scheme.length);
  const authEnd = rest.search(/[/?#]/);
  let authority = authEnd < 0 ? rest : rest.slice(0, authEnd);
  let tail = authEnd < 0 ? "" : rest.slice(authEnd);
  const at = authority.lastIndexOf("@");
  const colon = authority.indexOf(":");
  if (at > 0 && colon >= 0 && colon < at && !isHidden(authority.slice(colon + 1, at))) {
    hidden.push(authority.slice(colon + 1, at));
    authority = `${authority.slice(0, colon + 1)}${MASK}${authority.slice(at)}`;
  }
  const q = tail.search(/[?#]/);
  if (q >= 0 && tail[q] === "?") {
    const end = tail.indexOf("#", q) < 0 ? tail.length : tail.indexOf("#", q);
    const pairs = tail.slice(q + 1, end).split("&");
    const masked = pairs.map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0 || !SECRET_FIELD.test(queryKey(pair)) || isHidden(pair.slice(eq + 1))) return pair;
      hidden.push(pair.slice(eq + 1));
      return `${pair.slice(0, eq + 1)}${MASK}`;
    });
    tail = `${tail.slice(0, q + 1)}${masked.join("&")}${tail.slice(end)}`;
  }
  return scheme + authority + tail;
}

/**
 * One URL of a text, masked. The driver's reading decides: after the spans are masked, the masked URL is read
 * again, and if the driver would still find a secret in clear (a spelling the spans missed), the whole URL
 * after its scheme is hidden. A text the driver cannot read as a URL gets the user-info rule up to its last `@`.
 */
function maskOneUrl(url: string, secrets: string[]): string {
  const reading = readAsDriver(url);
  if (!reading) return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)\S*@/i, `$1${MASK}@`);
  secrets.push(...secretsOf(reading));
  const masked = maskSpans(url, secrets);
  const again = readAsDriver(masked);
  if (again && secretsOf(again).length === 0) return masked;
  return `${SCHEME.exec(url)?.[0] ?? ""}${MASK}`;
}

/** The spellings a secret may take in a text: as is, percent-encoded, form-encoded. */
function spellings(secret: string): string[] {
  const out = [secret, new URLSearchParams([["", secret]]).toString().slice(1)];
  try {
    out.push(encodeURIComponent(secret), encodeURI(secret));
  } catch {
    // a lone surrogate has no percent-encoding; it is hidden as is
  }
  return out;
}

/**
 * Replaces every secret a connection string can carry with ****: the password, sslpassword, sslkey and the like
 * of a URL, however their keys are spelled (percent-encoded, any case, duplicated), the user-info password even
 * with an unencoded `@` in it, and key=value strings (host=h password=secret). A secret found is also hidden
 * wherever else the text repeats it. Works on a connection string or on any text holding one (an error message,
 * a command line, a log line), so logs, refusals and pages all use this one function. Never throws.
 */
export function maskUrl(text: string): string {
  if (!text) return text;
  try {
    const secrets: string[] = [];
    // A whole text that is one URL may hold spaces the driver reads as part of it (u:pa ss@h).
    if (SCHEME.test(text.trim()) && /\s/.test(text.trim())) {
      const whole = readAsDriver(text.trim());
      if (whole) secrets.push(...secretsOf(whole));
    }
    let out = text.replace(URL_IN_TEXT, (_m, quote: string, found: string) => {
      // 'postgresql://…' (a shell-quoted argument): the closing quote is not part of the URL, nor is the
      // punctuation of the sentence around it ("cannot connect to postgresql://…: refused"), unless the text
      // is the URL alone (a password may end with "!").
      const close = quote ? found.lastIndexOf(quote) : -1;
      const quoted = close > 0 ? found.slice(0, close) : found;
      const url = found === text.trim() ? found : quoted.replace(/[.,;:!?)\]}>]+$/, "");
      return quote + maskOneUrl(url, secrets) + found.slice(url.length);
    });
    out = out.replace(SECRET_KV, (_m, key: string, value: string) => {
      secrets.push(value.replace(/^'(.*)'$/s, "$1"));
      return `${key}${MASK}`;
    });
    const repeats = [...new Set(secrets.flatMap(spellings))].filter((s) => s.length >= MIN_REPEAT_LENGTH && !isHidden(s));
    for (const s of repeats.sort((a, b) => b.length - a.length)) out = out.split(s).join(MASK);
    return out;
  } catch {
    // Never throws: a text that defeats the parsing gets the textual rules alone (user-info up to its last @,
    // key=value secrets), so a stored text (an import) keeps the rest of itself.
    return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)\S*@/gi, `$1${MASK}@`).replace(SECRET_KV, `$1${MASK}`);
  }
}

/** True when the text still holds a secret maskUrl would hide (tests and log guards use it). */
export const holdsSecret = (text: string): boolean => maskUrl(text) !== text;

const EXPECTED = "expected postgresql://user:password@host:5432/database";

/** Checks that a string is a postgres:// or postgresql:// URL the driver reads with a host and a database. Returns a message or null. */
export function checkPgUrl(url: string): string | null {
  const scheme = SCHEME.exec(url)?.[1];
  if (!scheme) return `is not a URL; ${EXPECTED}`;
  if (scheme !== "postgres" && scheme !== "postgresql") return `has scheme "${scheme}"; ${EXPECTED}`;
  const reading = readAsDriver(url);
  if (!reading?.settings) return `is not a URL the driver can read; ${EXPECTED}`;
  if (!reading.settings.host) return `has no host; ${EXPECTED}`;
  if (!reading.settings.database) return "names no database; add /<database> after the host";
  for (const [key, value] of reading.entries) if (FILE_FIELDS.includes(key) && value) return checkSslFile(key, value);
  return null;
}

/**
 * The driver reads sslcert, sslkey and sslrootcert whole, synchronously, when it parses the URL: /dev/zero or a
 * FIFO would stall the process for good. So each must be an existing regular file (the key's path is not shown).
 */
function checkSslFile(key: string, path: string): string | null {
  const named = key === "sslkey" ? "an sslkey file (its path is not shown)," : `${key} ${JSON.stringify(path)},`;
  try {
    if (statSync(path).isFile()) return null;
    return `has ${named} which is not a regular file; give the path of a PEM file`;
  } catch {
    return `has ${named} which does not exist or cannot be read; give the path of a PEM file`;
  }
}

/** Host, port and database of a URL as the driver reads them, for labels ("127.0.0.1:5432/app"). */
export function describeUrl(url: string): string {
  const settings = SCHEME.test(url) ? readAsDriver(url)?.settings : null;
  if (!settings?.host) return maskUrl(url);
  const host = String(settings.host);
  return `${host.includes(":") ? `[${host}]` : host}${settings.port ? `:${settings.port}` : ""}/${settings.database ?? ""}`;
}

/**
 * "<what> <masked url>: <cause>", masked as one text: the cause may repeat a secret of the URL (the sslkey file
 * a failed read names), which is hidden there too.
 */
export const connectFailure = (what: string, url: string, err: unknown): string => maskUrl(`${what} ${url}: ${explainPgError(err)}`);

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
