import assert from "node:assert/strict";
import { test } from "node:test";
import { readEnv } from "../env";
import { checkPgUrl, explainPgError, holdsSecret, maskUrl } from "./pgurl";

test("maskUrl hides the password and keeps the rest", () => {
  assert.equal(maskUrl("postgresql://bob:s3cret@db.example:5432/app"), "postgresql://bob:****@db.example:5432/app");
  assert.equal(maskUrl("postgresql://bob@db/app"), "postgresql://bob@db/app");
  assert.ok(!maskUrl("host=x password=hunter2 dbname=y").includes("hunter2"));
});

test("maskUrl hides every libpq secret form, alone or inside a longer text", () => {
  const cases: [string, string][] = [
    ["postgresql://u@h/db?password=hunter2", "postgresql://u@h/db?password=****"],
    ["postgresql://u@h/db?sslmode=require&sslpassword=k3y&application_name=x", "postgresql://u@h/db?sslmode=require&sslpassword=****&application_name=x"],
    ["postgres://u@h/db?PASSWORD=hunter2#frag", "postgres://u@h/db?PASSWORD=****#frag"],
    ["host=h password=secret dbname=d", "host=h password=**** dbname=d"],
    ["host=h password = 'se cr\\'et' user=u", "host=h password = **** user=u"],
    ["host=h sslpassword=abc", "host=h sslpassword=****"],
    ["cannot connect to postgresql://bob:s3cret@db:5432/app: refused", "cannot connect to postgresql://bob:****@db:5432/app: refused"],
    ["postgresql://u:p%40ss@h/db", "postgresql://u:****@h/db"],
    ["-url postgresql://u@h/db?password=x -writers 2", "-url postgresql://u@h/db?password=**** -writers 2"],
  ];
  for (const [input, masked] of cases) {
    assert.equal(maskUrl(input), masked, input);
    assert.equal(maskUrl(masked), masked, "masking twice changes nothing");
    assert.equal(holdsSecret(input), true, input);
    assert.equal(holdsSecret(masked), false, masked);
  }
  // Text without secrets is left as it is (a pasted "password authentication failed" message included).
  for (const plain of ["postgresql://u@h:5432/db?sslmode=require", "password authentication failed for user bob", ""]) assert.equal(maskUrl(plain), plain);
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
