// Next 16's request proxy (formerly middleware): every request passes lib/api/request-guard.ts's checks before a
// page or a route handler sees it.
import { NextResponse, type NextRequest } from "next/server";
import { readEnv } from "./lib/env";
import { allowedHosts, checkRequest, refusalHeaders } from "./lib/api/request-guard";

let hosts: Set<string> | undefined;

export function proxy(req: NextRequest) {
  hosts ??= allowedHosts(readEnv());
  const refusal = checkRequest(
    {
      method: req.method,
      pathname: req.nextUrl.pathname,
      host: req.headers.get("host"),
      origin: req.headers.get("origin"),
      secFetchSite: req.headers.get("sec-fetch-site"),
      contentType: req.headers.get("content-type"),
      hasBody: Number(req.headers.get("content-length") ?? 0) > 0 || req.headers.has("transfer-encoding"),
    },
    hosts,
  );
  if (!refusal) return NextResponse.next();
  // A page gets a page (someone followed or typed a link); the API its usual JSON error.
  if (refusal.status === 400 && !req.nextUrl.pathname.startsWith("/api/")) return refusalPage(refusal.error);
  return NextResponse.json({ error: refusal.error, fields: { [refusal.field]: refusal.error } }, { status: refusal.status, headers: refusalHeaders(refusal) });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A short, readable page for an address that cannot be read (the app's own layout needs a route to render in). */
function refusalPage(message: string): NextResponse {
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bad address · pg-broker-bench</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5">
<h1>This address cannot be read</h1><p>${escapeHtml(message)}.</p><p><a href="/">Home</a> · <a href="/runs">Runs</a></p></body></html>`;
  return new NextResponse(html, { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

export const config = {
  // Static build assets carry no data; everything else (pages included: their HTML holds data) is checked.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
