// Connection strings: masking for display, labels, checks, and a one-line explanation of a failed connection.
//
// What is secret is decided by what the driver reads: node-postgres parses a URL with pg-connection-string,
// which decodes query keys (`?pass%77ord=` is `password`), takes the last of duplicated keys, and finds the host
// after the last `@` (`u:Part1@LeakTail@host`). So masking finds each secret by the URL's structure, where the
// driver reads it, and replaces it there only; the driver's own reading of the result then checks that none is
// left. A secret is never searched for elsewhere in a text: that would mangle words equal to it (`postgres`,
// the port) and so give it away.
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

// key=value strings (libpq's other form, in error messages, command lines): password=secret,
// password = 'se cret', password='it\\'s' (a value masked already is left alone, so "?password=****#frag" keeps
// its fragment)
const SECRET_KV = /(\b(?:\w*pass(?:word|phrase)\w*|sslkey)\s*=\s*)(?!\*{4}(?:[&#\s.,;:!?)\]}>]|$))('(?:[^'\\]|\\.)*'|[^\s'&]+)/gi;
// Where a URL starts inside a text: its scheme, and an opening quote just before it.
const URL_START = /(['"]?)\b[a-z][a-z0-9+.-]*:\/\//gi;
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
// A command line's password flag (the reference's -password, or --password), as a shell word: its value may be
// quoted ('a b', "a b", 'it'\''s') or escaped (a\ b), with = or a space before it.
const PASSWORD_FLAG = /(^|\s)(-{1,2}password(?:=|\s+))((?:'[^']*'|"(?:[^"\\]|\\.)*"|\\.|[^\s'"\\])+)/g;

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

/** True when the driver's reading holds a secret in clear: a secret field's value, a duplicate's, the user-info password. */
function holdsClearSecret(r: DriverReading): boolean {
  const clear = (k: string, v: unknown) => SECRET_FIELD.test(k) && typeof v === "string" && !isHidden(v);
  return r.entries.some(([k, v]) => clear(k, v)) || Object.entries(r.settings ?? {}).some(([k, v]) => clear(k, v)) || !isHidden(r.userinfoPassword);
}

/** The decoded key of one `key=value` query pair, as URLSearchParams (the parser's) decodes it. */
const queryKey = (pair: string): string => new URLSearchParams(pair).keys().next().value ?? pair;

/**
 * Where the user-info password of the URL whose authority starts at `from` lies in `text`: [start, end), or null.
 * The URL parser ends the authority at the first `/`, `?` or `#`, and the user-info at the last `@` before it,
 * so a password runs from the first `:` to that `@`, spaces and `@`s included (`u:my secret pw@h/db`). Inside a
 * longer text the authority also ends with its line, and a user name holds no space (so `u@h, ask bob:x@y/z`
 * has no password). A password holding an unencoded `/`, `?` or `#` (which the driver cannot read) is hidden up
 * to the last `@` of its word.
 */
function passwordSpan(text: string, from: number, alone: boolean): [number, number] | null {
  const line = alone ? text.length : text.indexOf("\n", from) < 0 ? text.length : text.indexOf("\n", from);
  const delim = text.slice(from, line).search(/[/?#]/);
  const authorityEnd = delim < 0 ? line : from + delim;
  let at = text.lastIndexOf("@", authorityEnd - 1);
  if (at < from) {
    const word = /^[^\s:/@]*:\S*@/.exec(text.slice(from, line));
    if (!word) return null;
    at = from + word[0].length - 1;
  }
  const colon = text.indexOf(":", from);
  if (colon < 0 || colon > at || (!alone && /\s/.test(text.slice(from, colon)))) return null;
  return [colon + 1, at];
}

/** The secret values of a URL's query (`?password=…&sslkey=…`, keys decoded as the parser decodes them), as ****. */
function maskQuery(tail: string): string {
  const q = tail.search(/[?#]/);
  if (q < 0 || tail[q] !== "?") return tail;
  const end = tail.indexOf("#", q) < 0 ? tail.length : tail.indexOf("#", q);
  const pairs = tail.slice(q + 1, end).split("&");
  const masked = pairs.map((pair) => {
    const eq = pair.indexOf("=");
    if (eq < 0 || !SECRET_FIELD.test(queryKey(pair)) || isHidden(pair.slice(eq + 1))) return pair;
    return `${pair.slice(0, eq + 1)}${MASK}`;
  });
  return `${tail.slice(0, q + 1)}${masked.join("&")}${tail.slice(end)}`;
}

/**
 * The URL starting at `start` (its scheme) in `text`, masked, and where it ends. The password and the secret
 * query values are replaced where they lie, and nothing else: the rest of the URL is kept as written. The
 * driver's reading decides last: if it would still find a secret in clear in the masked URL (a spelling the
 * structure missed), all of the URL after its scheme is hidden.
 */
function maskUrlAt(text: string, start: number, quote: string, alone: boolean): { masked: string; end: number } {
  const scheme = SCHEME.exec(text.slice(start))?.[0] ?? "";
  const from = start + scheme.length;
  const span = passwordSpan(text, from, alone);
  const tailFrom = span ? span[1] : from;
  let tailEnd = alone ? text.length : text.slice(tailFrom).search(/\s/) < 0 ? text.length : tailFrom + text.slice(tailFrom).search(/\s/);
  if (!alone) {
    // 'postgresql://…' (a shell-quoted argument): the closing quote is not part of the URL, nor is the
    // punctuation of the sentence around it ("cannot connect to postgresql://…: refused").
    const close = quote ? text.lastIndexOf(quote, tailEnd - 1) : -1;
    if (close >= tailFrom) tailEnd = close;
    tailEnd = tailFrom + text.slice(tailFrom, tailEnd).replace(/[.,;:!?)\]}>]+$/, "").length;
  }
  const password = span ? text.slice(span[0], span[1]) : "";
  const authority = span ? `${text.slice(from, span[0])}${isHidden(password) ? password : MASK}` : "";
  const masked = scheme + authority + maskQuery(text.slice(tailFrom, tailEnd));
  const again = readAsDriver(masked);
  return { masked: again && holdsClearSecret(again) ? `${scheme}${MASK}` : masked, end: tailEnd };
}

/**
 * Replaces every secret a connection string can carry with ****, where the driver reads it and nowhere else: the
 * user-info password (spaces, `@`, `%`, quotes included: it runs to the last `@` before the host), the password,
 * sslpassword, sslkey and the like of a URL's query, however their keys are spelled (percent-encoded, any case,
 * duplicated), and key=value strings (host=h password=secret). Nothing is searched for and replaced elsewhere, so
 * a password that is also a word of the text (`postgres`, the user name, the port) leaves that word alone, and a
 * mask never tells what it hides. Works on a connection string alone (which may hold spaces the driver reads) or
 * on any text holding one (an error message, a command line, a log line). Never throws.
 */
export function maskUrl(text: string): string {
  if (!text) return text;
  try {
    // A whole text that is one URL may hold spaces the driver reads as part of it (u:pa ss@h, ?password=a b).
    const alone = SCHEME.test(text.trim());
    let out = "";
    let done = 0;
    for (const m of text.matchAll(URL_START)) {
      const start = m.index + m[1].length;
      if (start < done) continue;
      const { masked, end } = maskUrlAt(text, start, m[1], alone && start === text.length - text.trimStart().length);
      out += text.slice(done, start) + masked;
      done = end;
    }
    out += text.slice(done);
    return out.replace(SECRET_KV, (_m, key: string) => `${key}${MASK}`);
  } catch {
    // Never throws: a text that defeats the parsing gets the textual rules alone (user-info up to its last @,
    // key=value secrets), so a stored text (an import) keeps the rest of itself.
    return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)\S*@/gi, `$1${MASK}@`).replace(SECRET_KV, `$1${MASK}`);
  }
}

/**
 * maskUrl for a command line: also the value of a `-password` / `--password` flag (`-password 'a b'`,
 * `--password=x`), as one shell word. Only a flag's value is hidden, so a help text naming the flag is unchanged.
 */
export const maskCommandLine = (text: string): string => maskUrl(text.replace(PASSWORD_FLAG, (_m, before: string, flag: string) => `${before}${flag}${MASK}`));

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
 * "<what> <masked url>: <cause>", built from its parts, each masked on its own: the URL by its structure, the
 * cause by failureCause. Nothing is searched for in the composed text.
 */
export const connectFailure = (what: string, url: string, err: unknown): string => `${what} ${maskUrl(url)}: ${failureCause(err, url)}`;

/** "the <role> connection to <masked url> was lost: <cause>", built from its parts as connectFailure is. */
export const lostConnection = (role: string, url: string, err: unknown): string =>
  `the ${role} connection to ${maskUrl(url)} was lost: ${failureCause(err, url)}`;

/**
 * Why a connection to `url` failed, in a few words, showing none of the URL's secrets: a file the driver could
 * not read (sslkey, sslcert, sslrootcert) is named by its setting, the key's path never shown; any connection
 * string the driver's message quotes is masked by its structure.
 */
export function failureCause(err: unknown, url: string): string {
  const e = err as { path?: unknown; syscall?: unknown; code?: unknown };
  if (e && typeof e.path === "string" && typeof e.syscall === "string") {
    const setting = readAsDriver(url)?.entries.find(([k, v]) => FILE_FIELDS.includes(k) && v === e.path)?.[0];
    if (setting) {
      const file = setting === "sslkey" ? "the sslkey file (its path is not shown)" : `the ${setting} file ${JSON.stringify(e.path)}`;
      return `cannot ${e.syscall} ${file}${typeof e.code === "string" ? ` (${e.code})` : ""}`;
    }
  }
  return maskUrl(explainPgError(err));
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
