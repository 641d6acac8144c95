// Which requests the app answers (proxy.ts applies it to every request). Browser-safe, no Node imports.
//
// - Host: only names the server was started for. A DNS-rebinding page reaches 127.0.0.1 under its own name
//   (Host: evil.example), so answering any Host would let it read the API.
// - State-changing methods: only from this origin (Origin equal to the Host's origin, or the browser's own
//   Sec-Fetch-Site: same-origin), with a JSON body. A cross-site form or fetch always carries its Origin, and
//   a form cannot send application/json without a CORS preflight this app never grants.
// Clients that are not browsers (curl, scripts) send `Origin: http://<host>:<port>`; the CLI and the runner
// never call the API (they use the control store directly).
// - Methods: only those the app answers (ANSWERED_METHODS); any other (TRACE, PUT, PROPFIND, …) is a 405 with an
//   Allow header. scripts/serve-next.ts checks it before Next sees the request: Next builds a fetch Request of it,
//   which throws for TRACE and CONNECT (a bare 500 and a TypeError logged each time).
// - The path: every segment must percent-decode to text. Next decodes a dynamic segment (an id) before a page
//   or a route sees it and answers a bare 500 when that throws (`/api/runs/c_%ff`), so it is refused here.

export interface GuardInput {
  method: string;
  pathname: string;
  host: string | null;
  origin: string | null;
  secFetchSite: string | null;
  contentType: string | null;
  /** True when the request carries a body (content-length > 0 or chunked). */
  hasBody: boolean;
}

export type GuardRefusal = { status: 400 | 403 | 405 | 415 | 421; error: string; field: string };

/** The methods the app answers: its routes export GET, POST, PATCH (labels) and DELETE; HEAD and OPTIONS come with GET. */
export const ANSWERED_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PATCH", "DELETE"] as const;
const ALLOW = ANSWERED_METHODS.join(", ");

/** null for a method the app answers, else the 405 naming the ones it does (methods are case-sensitive). */
export function checkMethod(method: string): GuardRefusal | null {
  if ((ANSWERED_METHODS as readonly string[]).includes(method)) return null;
  const shown = method.length > 20 ? `${method.slice(0, 20)}…` : method;
  return {
    status: 405,
    field: "method",
    error: `${shown} is not answered here: the methods are ${ALLOW} (GET reads, POST, PATCH and DELETE change data)`,
  };
}

/** The headers of a refusal's answer: never cached, and a 405 says which methods are allowed. */
export function refusalHeaders(refusal: GuardRefusal): Record<string, string> {
  return { "cache-control": "no-store", ...(refusal.status === 405 ? { allow: ALLOW } : {}) };
}

/** What the segment after each collection names, for the message ("run id"). */
const ID_NAMES: Record<string, string> = {
  runs: "run id",
  targets: "target id",
  imports: "import id",
  references: "reference id",
  ceilings: "ceiling search id",
  ab: "A/B group id",
  ladder: "ladder id",
  repeat: "repeated set id",
};

/**
 * null when every segment of a (still encoded) path percent-decodes to text, else a 400 naming the segment:
 * "run id" for the segment after /runs/ or /api/runs/, "path segment" elsewhere.
 */
export function checkPathEncoding(pathname: string): GuardRefusal | null {
  const segments = pathname.split("/");
  for (let i = 0; i < segments.length; i++) {
    try {
      decodeURIComponent(segments[i]);
    } catch {
      const what = ID_NAMES[segments[i - 1] ?? ""];
      const shown = quoteSegment(segments[i]);
      const why = `its %-escapes are not UTF-8 text (each % must start a UTF-8 byte sequence, e.g. %41 for "A")`;
      return what
        ? { status: 400, field: "id", error: `${what} ${shown} is not a valid id: ${why}; ids are letters, digits, _ . : -` }
        : { status: 400, field: "path", error: `path segment ${shown} is not valid: ${why}` };
    }
  }
  return null;
}

/** A segment as sent (still encoded, so it is printable), cut when long. */
const quoteSegment = (s: string): string => JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}…` : s);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The host name of a Host header ("127.0.0.1:3000" → "127.0.0.1", "[::1]:3000" → "[::1]"). */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.split(":")[0];
}

/** Host names always answered, plus HOST and ALLOWED_HOSTS. */
export function allowedHosts(env: { HOST: string; ALLOWED_HOSTS: string[] }): Set<string> {
  const names = ["127.0.0.1", "localhost", "[::1]", env.HOST, ...env.ALLOWED_HOSTS].map((h) =>
    hostName(h.includes(":") && !h.startsWith("[") && h.split(":").length > 2 ? `[${h}]` : h),
  );
  return new Set(names.filter((h) => h && h !== "0.0.0.0" && h !== "[::]"));
}

/** null when the request may go on, or the refusal to send (status, message, the header at fault). */
export function checkRequest(r: GuardInput, hosts: Set<string>): GuardRefusal | null {
  if (!r.host || !hosts.has(hostName(r.host)))
    return {
      status: 421,
      field: "host",
      error: `this server does not answer to host ${JSON.stringify(r.host ?? "")}: open it as http://127.0.0.1:<port> or http://localhost:<port>, or add the name to ALLOWED_HOSTS`,
    };
  const badMethod = checkMethod(r.method);
  if (badMethod) return badMethod;
  const badPath = checkPathEncoding(r.pathname);
  if (badPath) return badPath;
  if (SAFE_METHODS.has(r.method.toUpperCase())) return null;
  const sameOrigin = r.secFetchSite === "same-origin" || (r.origin !== null && originHost(r.origin) === r.host.toLowerCase());
  if (!sameOrigin)
    return {
      status: 403,
      field: "origin",
      error:
        r.origin === null
          ? `${r.method} needs an Origin header naming this server (e.g. Origin: http://${r.host}); browsers send it, scripts must add it`
          : `${r.method} from origin ${JSON.stringify(r.origin)} is refused: only pages of http://${r.host} may change data`,
    };
  if (r.hasBody && !isAllowedBodyType(r.pathname, r.contentType))
    return {
      status: 415,
      field: "content-type",
      error: `the body must be sent as Content-Type: application/json${r.pathname === "/api/imports" ? " (or text/plain, multipart/form-data for an import)" : ""}, not ${JSON.stringify(r.contentType ?? "none")}`,
    };
  return null;
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

function isAllowedBodyType(pathname: string, contentType: string | null): boolean {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json") return true;
  // The import route's documented forms: a file upload or the raw text (still same-origin only).
  return pathname === "/api/imports" && (type === "text/plain" || type === "multipart/form-data");
}
