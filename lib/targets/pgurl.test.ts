import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { parse } from "pg-connection-string";
import { readEnv } from "../env";
import { checkPgUrl, describeUrl, explainPgError, holdsSecret, maskUrl } from "./pgurl";

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

// A real key file, so the driver's own parser (which reads it) accepts the URLs that name it.
const keyFile = path.join(mkdtempSync(path.join(os.tmpdir(), "pgbb-key-")), "client-Key-Path-41d7.pem");
writeFileSync(keyFile, "-----BEGIN PRIVATE KEY-----\nnot a real key\n-----END PRIVATE KEY-----\n");

/** Every way the text may spell a value: as is, percent-encoded, form-encoded. */
const spelled = (v: string) => [v, encodeURIComponent(v), new URLSearchParams([["", v]]).toString().slice(1)];

test("maskUrl hides what the driver reads as a secret, whatever the key's spelling (encoded, any case, duplicated)", () => {
  const cases: { url: string; secrets: string[]; masked: string }[] = [
    { url: "postgresql://u@h/db?pass%77ord=Enc0ded-Pw", secrets: ["Enc0ded-Pw"], masked: "postgresql://u@h/db?pass%77ord=****" },
    { url: "postgresql://u@h/db?%70%61%73%73%77%6f%72%64=All-Enc0ded", secrets: ["All-Enc0ded"], masked: "postgresql://u@h/db?%70%61%73%73%77%6f%72%64=****" },
    { url: "postgresql://u@h/db?PassWord=Cased-Pw&sslmode=disable", secrets: ["Cased-Pw"], masked: "postgresql://u@h/db?PassWord=****&sslmode=disable" },
    {
      url: "postgresql://u:Userinfo-Pw@h/db?password=Dup-First&password=Dup%2BLast",
      secrets: ["Userinfo-Pw", "Dup-First", "Dup+Last"],
      masked: "postgresql://u:****@h/db?password=****&password=****",
    },
    { url: "postgresql://u@h/db?ssl%70assword=Ssl-Enc-Pw", secrets: ["Ssl-Enc-Pw"], masked: "postgresql://u@h/db?ssl%70assword=****" },
    { url: `postgresql://u@h/db?ssl%6Bey=${keyFile}`, secrets: [keyFile], masked: "postgresql://u@h/db?ssl%6Bey=****" },
    {
      url: "postgresql://u@h/db?sslkey_password=Kp-Secret&application_name=x",
      secrets: ["Kp-Secret"],
      masked: "postgresql://u@h/db?sslkey_password=****&application_name=x",
    },
    { url: "postgresql://u@h/db?password=form+enc%20ded", secrets: ["form enc ded"], masked: "postgresql://u@h/db?password=****" },
    { url: "postgresql://u:%50art1-%61bc@h/db", secrets: ["Part1-abc"], masked: "postgresql://u:****@h/db" },
  ];
  for (const { url, secrets, masked } of cases) {
    const out = maskUrl(url);
    assert.equal(out, masked, url);
    for (const s of secrets) for (const spelling of spelled(s)) assert.ok(!out.includes(spelling), `${url} → ${out} shows ${spelling}`);
    // The driver's own reading of the masked URL finds no secret left.
    const read = parse(out.replace(/ssl%6Bey=\*{4}/, "")) as Record<string, unknown>;
    for (const k of ["password", "sslpassword", "PassWord", "sslkey_password"])
      assert.ok([undefined, "", "****"].includes(read[k] as string), `${out}: ${k}=${read[k]}`);
    assert.equal(maskUrl(out), out, "masking twice changes nothing");
    assert.equal(holdsSecret(url), true, url);
    assert.equal(holdsSecret(out), false, out);
  }
  // The driver reads these keys: the test's premise, checked with the driver's own parser.
  assert.equal(parse("postgresql://u@h/db?pass%77ord=Enc0ded-Pw").password, "Enc0ded-Pw");
  assert.equal(parse("postgresql://u@h/db?password=Dup-First&password=Dup-Last").password, "Dup-Last");
  assert.match(String((parse(`postgresql://u@h/db?ssl%6Bey=${keyFile}`).ssl as { key: string }).key), /PRIVATE KEY/);
});

test("a password with an unencoded @ is hidden whole; labels and checks use the host the driver connects to", () => {
  const url = "postgresql://u:Part1@LeakTail@db.example:6543/app";
  // What the driver reads: the password runs to the last @.
  assert.equal(parse(url).password, "Part1@LeakTail");
  assert.equal(parse(url).host, "db.example");
  assert.equal(maskUrl(url), "postgresql://u:****@db.example:6543/app");
  assert.equal(maskUrl(`cannot connect to ${url}: refused`), "cannot connect to postgresql://u:****@db.example:6543/app: refused");
  assert.equal(describeUrl(url), "db.example:6543/app");
  assert.equal(checkPgUrl(url), null);
  // A query host is the one the driver uses; a space in a password is read by the driver too.
  assert.equal(describeUrl("postgresql://u:p@h/db?host=other.example&port=7"), "other.example:7/db");
  assert.equal(maskUrl("postgresql://u:With Space-Pw@h/db"), "postgresql://u:****@h/db");
  // URLs the driver refuses still show no password.
  for (const bad of [
    "postgresql://u:Sl/ash-Pw@h/db",
    "postgresql://u:Ha#sh-Pw@h/db",
    "postgresql://u:Bad%ff-Pw@h/db",
    "postgresql://u:Port-Pw@h:notaport/db",
  ]) {
    assert.ok(!/-Pw/.test(maskUrl(bad)), `${bad} → ${maskUrl(bad)}`);
    assert.ok(!/-Pw/.test(describeUrl(bad)), `describeUrl(${bad}) → ${describeUrl(bad)}`);
    assert.match(checkPgUrl(bad) ?? "", /not a URL/);
  }
});

test("a secret the text repeats outside its URL is hidden there too; masking reads no file", () => {
  const missing = "/no/such/dir/Leaky-Key-Path.pem";
  const text = `cannot connect to postgresql://u@h/db?sslkey=${missing}: ENOENT: no such file or directory, open '${missing}'`;
  assert.equal(maskUrl(text), "cannot connect to postgresql://u@h/db?sslkey=****: ENOENT: no such file or directory, open '****'");
  // /dev/zero would never end if read: masking, labels and checks never read the files a URL names.
  const zero = "postgresql://u@h/db?sslrootcert=/dev/zero&sslcert=/dev/zero&sslkey=/dev/zero";
  assert.equal(maskUrl(zero), "postgresql://u@h/db?sslrootcert=****&sslcert=****&sslkey=****");
  assert.equal(describeUrl(zero), "h/db");
  // A quoted URL in a command line keeps its closing quote.
  assert.equal(maskUrl("bench --target 'postgresql://u@h/db?Password=Qu0ted-Pw' -writers 2"), "bench --target 'postgresql://u@h/db?Password=****' -writers 2");
  assert.equal(maskUrl("host=h sslkey=/a/b.pem user=u"), "host=h sslkey=**** user=u");
  // A URL alone keeps its last character in the secret (a sentence's punctuation is only cut inside a text).
  assert.equal(maskUrl("postgresql://u@h/db?password=Ends-With!"), "postgresql://u@h/db?password=****");
  assert.equal(maskUrl("postgresql://u:Ends-With:@h/db"), "postgresql://u:****@h/db");
});

test("checkPgUrl refuses SSL file settings that name no regular file (the driver would read /dev/zero for ever)", () => {
  assert.equal(checkPgUrl(`postgresql://u@h/db?sslkey=${keyFile}&sslrootcert=${keyFile}`), null);
  assert.match(checkPgUrl("postgresql://u@h/db?sslrootcert=/dev/zero") ?? "", /has sslrootcert "\/dev\/zero", which is not a regular file/);
  assert.match(checkPgUrl("postgresql://u@h/db?ssl%63ert=/tmp") ?? "", /has sslcert "\/tmp", which is not a regular file/);
  const missingKey = checkPgUrl("postgresql://u@h/db?sslkey=/no/such/Secret-Key-Dir/k.pem") ?? "";
  assert.match(missingKey, /has an sslkey file \(its path is not shown\), which does not exist/);
  assert.ok(!missingKey.includes("Secret-Key-Dir"), "the key's path is not shown");
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
