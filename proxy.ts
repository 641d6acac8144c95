// Next 16's request proxy (formerly middleware): every request passes lib/api/request-guard.ts's checks before a
// page or a route handler sees it.
import { NextResponse, type NextRequest } from "next/server";
import { readEnv } from "./lib/env";
import { allowedHosts, checkRequest } from "./lib/api/request-guard";

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
  return NextResponse.json(
    { error: refusal.error, fields: { [refusal.field]: refusal.error } },
    { status: refusal.status, headers: { "cache-control": "no-store" } },
  );
}

export const config = {
  // Static build assets carry no data; everything else (pages included: their HTML holds data) is checked.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
