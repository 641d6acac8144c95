import assert from "node:assert/strict";
import { test } from "node:test";
import { allowedHosts, checkMethod, checkRequest, type GuardInput, refusalHeaders } from "./request-guard";

const hosts = allowedHosts({ HOST: "127.0.0.1", ALLOWED_HOSTS: ["bench.lan"] });
const req = (over: Partial<GuardInput>): GuardInput => ({
  method: "POST",
  pathname: "/api/runs",
  host: "127.0.0.1:3000",
  origin: "http://127.0.0.1:3000",
  secFetchSite: null,
  contentType: "application/json",
  hasBody: true,
  ...over,
});

test("a same-origin JSON POST passes; so does a GET from any origin to an allowed host", () => {
  assert.equal(checkRequest(req({}), hosts), null);
  assert.equal(checkRequest(req({ origin: null, secFetchSite: "same-origin" }), hosts), null);
  assert.equal(checkRequest(req({ method: "GET", origin: "http://evil.example", contentType: null, hasBody: false }), hosts), null);
  assert.equal(checkRequest(req({ host: "localhost:3000", origin: "http://localhost:3000" }), hosts), null);
  assert.equal(checkRequest(req({ host: "bench.lan:3000", origin: "http://bench.lan:3000" }), hosts), null);
  // cancel: a POST with no body needs no content type
  assert.equal(checkRequest(req({ pathname: "/api/runs/r_1/cancel", contentType: null, hasBody: false }), hosts), null);
});

test("a foreign Host is refused on every method (DNS rebinding)", () => {
  for (const method of ["GET", "POST"]) {
    const r = checkRequest(req({ method, host: "evil.example:3000", origin: "http://evil.example:3000" }), hosts);
    assert.equal(r?.status, 421);
    assert.equal(r?.field, "host");
    assert.match(r!.error, /evil\.example/);
  }
  assert.equal(checkRequest(req({ host: null }), hosts)?.status, 421);
});

test("cross-site and origin-less state changes are refused naming the origin", () => {
  const cross = checkRequest(req({ origin: "http://evil.example", contentType: "text/plain" }), hosts);
  assert.equal(cross?.status, 403);
  assert.equal(cross?.field, "origin");
  assert.match(cross!.error, /evil\.example/);
  assert.equal(checkRequest(req({ method: "DELETE", origin: null, hasBody: false }), hosts)?.status, 403);
  assert.equal(checkRequest(req({ origin: "http://127.0.0.1:4000" }), hosts)?.status, 403, "another port is another origin");
  assert.equal(checkRequest(req({ origin: "null" }), hosts)?.status, 403);
  assert.equal(checkRequest(req({ origin: null, secFetchSite: "cross-site" }), hosts)?.status, 403);
});

test("a same-origin body must be JSON (imports also take text and files)", () => {
  const r = checkRequest(req({ contentType: "text/plain" }), hosts);
  assert.equal(r?.status, 415);
  assert.equal(r?.field, "content-type");
  assert.equal(checkRequest(req({ contentType: "application/json; charset=utf-8" }), hosts), null);
  assert.equal(checkRequest(req({ pathname: "/api/imports", contentType: "text/plain" }), hosts), null);
  assert.equal(checkRequest(req({ pathname: "/api/imports", contentType: "multipart/form-data; boundary=x" }), hosts), null);
  assert.equal(checkRequest(req({ pathname: "/api/targets", contentType: "multipart/form-data; boundary=x" }), hosts)?.status, 415);
});

test("HOST=0.0.0.0 does not make every name allowed; an IPv6 HOST is bracketed", () => {
  const any = allowedHosts({ HOST: "0.0.0.0", ALLOWED_HOSTS: [] });
  assert.equal(any.has("0.0.0.0"), false);
  assert.equal(checkRequest(req({ host: "evil.example" }), any)?.status, 421);
  const v6 = allowedHosts({ HOST: "::1", ALLOWED_HOSTS: [] });
  assert.equal(checkRequest(req({ host: "[::1]:3000", origin: "http://[::1]:3000" }), v6), null);
});

test("a method the app does not answer is a 405 naming the ones it does, before any other check", () => {
  for (const method of ["TRACE", "CONNECT", "PUT", "PROPFIND", "get", "patch"]) {
    const r = checkRequest(req({ method, host: "127.0.0.1:3000", origin: null }), hosts);
    assert.equal(r?.status, 405, method);
    assert.equal(r?.field, "method");
    assert.equal(
      r?.error,
      `${method} is not answered here: the methods are GET, HEAD, OPTIONS, POST, PATCH, DELETE (GET reads, POST, PATCH and DELETE change data)`,
    );
    assert.deepEqual(refusalHeaders(r!), { "cache-control": "no-store", allow: "GET, HEAD, OPTIONS, POST, PATCH, DELETE" });
  }
  for (const method of ["GET", "HEAD", "OPTIONS", "PATCH"]) assert.equal(checkMethod(method), null, method);
  assert.equal(checkRequest(req({ method: "DELETE", hasBody: false, contentType: null }), hosts), null);
  assert.equal(refusalHeaders(checkRequest(req({ origin: null }), hosts)!).allow, undefined, "only a 405 carries Allow");
});
