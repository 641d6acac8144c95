import assert from "node:assert/strict";
import { test } from "node:test";
import { readEnv } from "./env";
import { checkPgUrl, explainPgError, maskUrl } from "./pgurl";

test("maskUrl hides the password and keeps the rest", () => {
  assert.equal(maskUrl("postgresql://bob:s3cret@db.example:5432/app"), "postgresql://bob:****@db.example:5432/app");
  assert.equal(maskUrl("postgresql://bob@db/app"), "postgresql://bob@db/app");
  assert.ok(!maskUrl("host=x password=hunter2 dbname=y").includes("hunter2"));
});

test("checkPgUrl names what is wrong", () => {
  assert.equal(checkPgUrl("postgresql://u:p@h:5432/db"), null);
  assert.match(checkPgUrl("mysql://h/db")!, /scheme "mysql"/);
  assert.match(checkPgUrl("not a url")!, /not a URL/);
  assert.match(checkPgUrl("postgresql://h:5432")!, /names no database/);
});

test("readEnv reports each bad variable by name", () => {
  assert.throws(() => readEnv({ PORT: "http", DATABASE_URL: "mysql://x/y" }), /PORT must be a port number; DATABASE_URL has scheme "mysql"/);
  const env = readEnv({});
  assert.equal(env.PORT, 3000);
  assert.equal(env.HOST, "127.0.0.1");
  assert.equal(env.DATABASE_URL, undefined);
});

test("explainPgError turns codes into causes", () => {
  assert.match(explainPgError({ code: "ECONNREFUSED", message: "connect ECONNREFUSED" }), /connection refused/);
  assert.match(explainPgError({ code: "28P01", message: "password authentication failed for user" }), /password authentication failed/);
  assert.match(explainPgError({ errors: [{ code: "ECONNREFUSED" }] }), /ECONNREFUSED/);
});
