import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import pg from "pg";
import { parse } from "pg-connection-string";
import { readEnv } from "../env";
import { checkPgUrl, connectFailure, describeUrl, explainPgError, holdsSecret, maskCommandLine, maskUrl } from "./pgurl";

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

test("a driver's failure is told from masked parts: the sslkey file it could not read is named by its setting; masking reads no file", () => {
  const missing = "/no/such/dir/Leaky-Key-Path.pem";
  const url = `postgresql://u@h/db?sslkey=${missing}`;
  // The driver reads the key file as it parses the URL: its error names the path.
  const err = (() => {
    try {
      new pg.Client({ connectionString: url });
    } catch (e) {
      return e as Error;
    }
    throw new Error("the driver read a missing sslkey file");
  })();
  assert.match(err.message, /Leaky-Key-Path/);
  assert.equal(
    connectFailure("cannot connect to", url, err),
    "cannot connect to postgresql://u@h/db?sslkey=****: cannot open the sslkey file (its path is not shown) (ENOENT)",
  );
  // /dev/zero would never end if read: masking, labels and checks never read the files a URL names.
  const zero = "postgresql://u@h/db?sslrootcert=/dev/zero&sslcert=/dev/zero&sslkey=/dev/zero";
  // Only the key's path is a secret: the certificates' paths are shown, even when the key's is the same.
  assert.equal(maskUrl(zero), "postgresql://u@h/db?sslrootcert=/dev/zero&sslcert=/dev/zero&sslkey=****");
  assert.equal(describeUrl(zero), "h/db");
  // A quoted URL in a command line keeps its closing quote.
  assert.equal(maskUrl("bench --target 'postgresql://u@h/db?Password=Qu0ted-Pw' -writers 2"), "bench --target 'postgresql://u@h/db?Password=****' -writers 2");
  assert.equal(maskUrl("host=h sslkey=/a/b.pem user=u"), "host=h sslkey=**** user=u");
  // A URL alone keeps its last character in the secret (a sentence's punctuation is only cut inside a text).
  assert.equal(maskUrl("postgresql://u@h/db?password=Ends-With!"), "postgresql://u@h/db?password=****");
  assert.equal(maskUrl("postgresql://u:Ends-With:@h/db"), "postgresql://u:****@h/db");
});

/**
 * Passwords that are also words of their URL or of the text around it, and passwords holding spaces, @, %,
 * quotes and non-ASCII letters: each is masked where the driver reads it, and every other character is kept.
 */
export const AWKWARD_PASSWORDS: { why: string; user: string; password: string; host?: string; port?: string; db?: string }[] = [
  { why: "postgres (the scheme's and the database's word)", user: "u_pg", password: "postgres", db: "postgres" },
  { why: "pass (inside the user name)", user: "u_pass", password: "pass" },
  { why: "the port", user: "u", password: "1234", port: "1234" },
  { why: "the user name", user: "bench", password: "bench" },
  { why: "the database", user: "u", password: "appdb", db: "appdb" },
  { why: "the host", user: "u", password: "db.example", host: "db.example" },
  { why: "one character", user: "p", password: "p", db: "p" },
  { why: "a space", user: "u", password: "a b" },
  { why: "spaces", user: "u", password: "my secret pw" },
  { why: "an @ and a space", user: "u", password: "a@b c" },
  { why: "a %", user: "u", password: "100% sure" },
  { why: "quotes", user: "u", password: `it's "q"` },
  { why: "non-ASCII letters", user: "u", password: "pässwörd ✓" },
];

test("a password that is also a word of the text, or holds spaces, @, %, quotes: masked where the driver reads it, nowhere else", () => {
  for (const c of AWKWARD_PASSWORDS) {
    const hostPort = `${c.host ?? "127.0.0.1"}:${c.port ?? "5432"}`;
    const url = `postgresql://${c.user}:${c.password}@${hostPort}/${c.db ?? "db"}`;
    const masked = `postgresql://${c.user}:****@${hostPort}/${c.db ?? "db"}`;
    // The premise: the driver reads that password, and that host.
    assert.equal(parse(url).password, c.password, c.why);
    assert.equal(parse(url).host, c.host ?? "127.0.0.1", c.why);
    assert.equal(maskUrl(url), masked, c.why);
    assert.equal(maskUrl(`  ${url}\n`), `  ${masked}\n`, c.why);
    assert.equal(maskUrl(masked), masked, `${c.why}: masking twice changes nothing`);
    assert.equal(holdsSecret(url), true, c.why);
    assert.equal(holdsSecret(masked), false, c.why);
    // Inside a longer text: the sentence around the URL is kept, whatever words it shares with the password.
    for (const [before, after] of [
      ["cannot connect to ", ": connection refused: is Postgres running on that host and port? (ECONNREFUSED)"],
      ["runner: the admin connection to ", " was lost: the server closed the connection"],
      ["npm run bench -- queue --target '", "' --warmup 5s"],
    ])
      assert.equal(maskUrl(`${before}${url}${after}`), `${before}${masked}${after}`, `${c.why}: ${before}`);
    // Built from its parts.
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    assert.equal(
      connectFailure("cannot connect to", url, refused),
      `cannot connect to ${masked}: connection refused: is Postgres running on that host and port? (ECONNREFUSED)`,
      c.why,
    );
    // The label names what the driver connects to.
    assert.equal(describeUrl(url), `${hostPort}/${c.db ?? "db"}`, c.why);
  }
  // Query and key=value secrets with spaces, alone or quoted.
  assert.equal(maskUrl("postgresql://u@h/postgres?password=my secret pw"), "postgresql://u@h/postgres?password=****");
  assert.equal(maskUrl("host=h user=u password='a b' dbname=postgres"), "host=h user=u password=**** dbname=postgres");
  // Other words are never searched for: not in a URL that holds no secret, nor around one.
  assert.equal(maskUrl("postgresql://u:pass@h/db, then pass the test"), "postgresql://u:****@h/db, then pass the test");
  assert.equal(maskUrl("port 1234 of postgresql://u:1234@h:1234/db"), "port 1234 of postgresql://u:****@h:1234/db");
});

test("a command line's -password / --password value is masked as one shell word; a help text naming the flag is left alone", () => {
  const cases: [string, string][] = [
    ["./pg_msg_bench -mode queue -password hunter2 -writers 2", "./pg_msg_bench -mode queue -password **** -writers 2"],
    ["./pg_msg_bench -password 'my secret pw' -writers 2", "./pg_msg_bench -password **** -writers 2"],
    ['./pg_msg_bench --password="a b" -writers 2', "./pg_msg_bench --password=**** -writers 2"],
    ["./pg_msg_bench --password 'it'\\''s' -x", "./pg_msg_bench --password **** -x"],
    ["./pg_msg_bench -password=pass -user pass_user", "./pg_msg_bench -password=**** -user pass_user"],
  ];
  for (const [input, masked] of cases) assert.equal(maskCommandLine(input), masked, input);
  const help = "  -password VALUE             reference-style connection: password\n  -target VALUE  postgresql://user:****@host:5432/db";
  assert.equal(maskUrl(help), help);
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
