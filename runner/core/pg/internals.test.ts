// The node-postgres internals the lean hot path (leanquery.ts, protocol.ts) relies on, checked one by one.
// leanquery.ts hands pg.Client a "submittable" object and talks to its private Connection directly;
// protocol.ts writes Bind…Sync bytes itself and uses pg-protocol's serializer for the rest. None of that is
// public API, so a pg upgrade can break it without a type error: a renamed private method would leave a query
// that never settles, a changed hook signature rows that go missing. protocol.test.ts catches byte changes;
// this file catches the internals moving, and names the one that moved.
//
// Pinned in package.json: pg 8.23.1, pg-protocol 1.16.1 (exact versions, no range). After upgrading either,
// run this file and protocol.test.ts (`node --import tsx --test runner/core/pg/internals.test.ts
// runner/core/pg/protocol.test.ts`); a failure names the internal and the file that depends on it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { PROJECT_ROOT } from "../../../lib/paths";
import { testDatabase } from "../../../lib/testing";
import { LeanQuery } from "./leanquery";
import { bindExecuteMessage } from "./protocol";

/** The installed version of a package (read from its folder: pg-protocol does not export package.json). */
function installedVersion(pkg: string, from = PROJECT_ROOT): { version: string; dir: string } {
  const dir = packageDir(createRequire(path.join(from, "package.json")).resolve(pkg));
  return { version: JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).version, dir };
}
function packageDir(file: string): string {
  let dir = path.dirname(file);
  while (!readJson(path.join(dir, "package.json"))?.name) dir = path.dirname(dir);
  return dir;
}
function readJson(file: string): { name?: string } | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

const pinned = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")).dependencies as Record<string, string>;
const pgInstalled = installedVersion("pg");
const protocolInstalled = installedVersion("pg-protocol");
const versionOf = (pkg: string, installed: string) => (pinned[pkg] === installed ? `${pkg} ${installed}` : `${pkg} ${pinned[pkg]} → ${installed}`);
const versions = `${versionOf("pg", pgInstalled.version)}, ${versionOf("pg-protocol", protocolInstalled.version)}`;

const moved = (what: string, dependent: string, detail: string) =>
  `node-postgres internal \`${what}\` ${detail} (${versions}): runner/core/pg/${dependent} depends on it; re-check and update`;

interface Internal {
  /** How the code names it, e.g. "Client.prototype._pulseQueryQueue". */
  what: string;
  /** The file that relies on it and for what. */
  dependent: "leanquery.ts" | "protocol.ts";
  value: () => unknown;
  /** For functions: the number of declared parameters it has at the pinned version. */
  arity?: number;
  type?: "function" | "object";
  /**
   * Code the function's body must contain (whitespace and quote style ignored): where the behaviour the lean
   * path relies on is a call made from inside node-postgres, existence alone would not catch it changing.
   */
  contains?: string[];
}

const ClientProto = pg.Client.prototype as unknown as Record<string, unknown>;
const Connection = require("pg/lib/connection") as { prototype: Record<string, unknown> };
const utils = require("pg/lib/utils") as Record<string, unknown>;
const protocol = require("pg-protocol") as { serialize: Record<string, unknown> };
const aClient = () => new pg.Client() as unknown as Record<string, unknown> & { connection: Record<string, unknown> };

const INTERNALS: Internal[] = [
  // How a LeanQuery gets onto the connection: client.query(submittable) queues it and calls its submit().
  {
    what: "Client.prototype.query",
    dependent: "leanquery.ts",
    value: () => ClientProto.query,
    arity: 3,
    contains: ["typeof config.submit === 'function'", "result = query = config", "this._queryQueue.push(query)", "this._pulseQueryQueue()"],
  },
  {
    what: "Client.prototype._pulseQueryQueue",
    dependent: "leanquery.ts",
    value: () => ClientProto._pulseQueryQueue,
    arity: 0,
    contains: ["activeQuery.submit(this.connection)", "activeQuery.handleError(queryError, this.connection)"],
  },
  // The query hooks the client calls on the active query as the server answers (LeanQuery.handle*).
  {
    what: "Client.prototype._handleReadyForQuery",
    dependent: "leanquery.ts",
    value: () => ClientProto._handleReadyForQuery,
    arity: 1,
    contains: ["activeQuery.handleReadyForQuery(this.connection)"],
  },
  {
    what: "Client.prototype._handleErrorMessage",
    dependent: "leanquery.ts",
    value: () => ClientProto._handleErrorMessage,
    arity: 1,
    // The statement is forgotten on error, so the next run parses it again (LeanQuery.submit checks it).
    contains: ["delete this.connection.submittedNamedStatements[activeQuery.name]", "activeQuery.handleError(msg, this.connection)"],
  },
  {
    what: "Client.prototype._handleRowDescription",
    dependent: "leanquery.ts",
    value: () => ClientProto._handleRowDescription,
    arity: 1,
    contains: ["activeQuery.handleRowDescription(msg)"],
  },
  {
    what: "Client.prototype._handleDataRow",
    dependent: "leanquery.ts",
    value: () => ClientProto._handleDataRow,
    arity: 1,
    contains: ["activeQuery.handleDataRow(msg)"],
  },
  {
    what: "Client.prototype._handleCommandComplete",
    dependent: "leanquery.ts",
    value: () => ClientProto._handleCommandComplete,
    arity: 1,
    contains: ["activeQuery.handleCommandComplete(msg, this.connection)"],
  },
  {
    what: "Client.prototype._handleEmptyQuery",
    dependent: "leanquery.ts",
    value: () => ClientProto._handleEmptyQuery,
    arity: 1,
    contains: ["activeQuery.handleEmptyQuery(this.connection)"],
  },
  {
    what: "Client.prototype._handlePortalSuspended",
    dependent: "leanquery.ts",
    value: () => ClientProto._handlePortalSuspended,
    arity: 1,
    contains: ["activeQuery.handlePortalSuspended(this.connection)"],
  },
  {
    what: "Client.prototype._handleCopyInResponse",
    dependent: "leanquery.ts",
    value: () => ClientProto._handleCopyInResponse,
    arity: 1,
    contains: ["activeQuery.handleCopyInResponse(this.connection)"],
  },
  {
    what: "Client.prototype._handleCopyData",
    dependent: "leanquery.ts",
    value: () => ClientProto._handleCopyData,
    arity: 1,
    contains: ["activeQuery.handleCopyData(msg, this.connection)"],
  },
  {
    what: "Client.prototype._handleParseComplete",
    dependent: "leanquery.ts",
    value: () => ClientProto._handleParseComplete,
    arity: 0,
    // Moves a LeanQuery's statement from submitted to parsed, keyed by its `name`, valued by its `text`.
    contains: ["this.connection.parsedStatements[activeQuery.name] = activeQuery.text", "delete this.connection.submittedNamedStatements[activeQuery.name]"],
  },
  // A lost connection settles the waiting LeanQuery through handleError (the loops then stop).
  {
    what: "Client.prototype._errorAllQueries",
    dependent: "leanquery.ts",
    value: () => ClientProto._errorAllQueries,
    arity: 1,
    contains: ["query.handleError(err, this.connection)"],
  },
  // The private Connection a LeanQuery is submitted to, and what submit() uses of it.
  { what: "Client#connection", dependent: "leanquery.ts", value: () => aClient().connection, type: "object" },
  { what: "Connection#stream", dependent: "leanquery.ts", value: () => aClient().connection.stream, type: "object" },
  { what: "Connection#stream.write", dependent: "leanquery.ts", value: () => (aClient().connection.stream as Record<string, unknown>).write, arity: 3 },
  // Optional in leanquery.ts, but without them Parse and Bind…Sync would go out as separate TCP writes.
  { what: "Connection#stream.cork", dependent: "leanquery.ts", value: () => (aClient().connection.stream as Record<string, unknown>).cork, arity: 0 },
  { what: "Connection#stream.uncork", dependent: "leanquery.ts", value: () => (aClient().connection.stream as Record<string, unknown>).uncork, arity: 0 },
  { what: "Connection#parsedStatements", dependent: "leanquery.ts", value: () => aClient().connection.parsedStatements, type: "object" },
  { what: "Connection#submittedNamedStatements", dependent: "leanquery.ts", value: () => aClient().connection.submittedNamedStatements, type: "object" },
  { what: "Connection.prototype.parse", dependent: "leanquery.ts", value: () => Connection.prototype.parse, arity: 1, contains: ["serialize.parse(query)"] },
  { what: "Connection.prototype.bind", dependent: "leanquery.ts", value: () => Connection.prototype.bind, arity: 1, contains: ["serialize.bind(config)"] },
  {
    what: "Connection.prototype.describe",
    dependent: "leanquery.ts",
    value: () => Connection.prototype.describe,
    arity: 1,
    contains: ["serialize.describe(msg)"],
  },
  {
    what: "Connection.prototype.execute",
    dependent: "leanquery.ts",
    value: () => Connection.prototype.execute,
    arity: 1,
    contains: ["serialize.execute(config)"],
  },
  { what: "Connection.prototype.sync", dependent: "leanquery.ts", value: () => Connection.prototype.sync, arity: 0 },
  // node-postgres' parameter encoder, passed to bind() as valueMapper.
  { what: "pg/lib/utils prepareValue", dependent: "leanquery.ts", value: () => utils.prepareValue, arity: 1 },
  // pg-protocol's serializer: protocol.ts builds the Query message and the Describe/Execute/Sync tail with it.
  { what: "pg-protocol serialize.query", dependent: "protocol.ts", value: () => protocol.serialize.query, arity: 1 },
  { what: "pg-protocol serialize.describe", dependent: "protocol.ts", value: () => protocol.serialize.describe, arity: 1 },
  { what: "pg-protocol serialize.execute", dependent: "protocol.ts", value: () => protocol.serialize.execute, arity: 1 },
  { what: "pg-protocol serialize.sync", dependent: "protocol.ts", value: () => protocol.serialize.sync, arity: 0 },
  // bind() maps each value through config.valueMapper (leanquery.ts passes prepareValue there).
  { what: "pg-protocol serialize.bind", dependent: "leanquery.ts", value: () => protocol.serialize.bind, arity: 0, contains: ["config.valueMapper"] },
];

/** Function source with whitespace dropped and quotes unified, so a reformat of node-postgres does not trip it. */
const normalise = (code: string) => code.replace(/\s+/g, "").replace(/"/g, "'");

describe("node-postgres internals the lean path relies on", () => {
  test("the installed pg and pg-protocol are the pinned versions, and pg uses the same pg-protocol", () => {
    assert.equal(pgInstalled.version, pinned.pg, moved("pg", "leanquery.ts", "is not the pinned version"));
    assert.equal(protocolInstalled.version, pinned["pg-protocol"], moved("pg-protocol", "protocol.ts", "is not the pinned version"));
    // protocol.ts serialises with the project's pg-protocol; pg writes with its own. They must be one copy.
    const pgOwn = installedVersion("pg-protocol", pgInstalled.dir);
    assert.equal(pgOwn.dir, protocolInstalled.dir, moved("pg-protocol", "protocol.ts", `used by pg is a different copy (${pgOwn.version} at ${pgOwn.dir})`));
  });

  for (const i of INTERNALS) {
    test(i.what, () => {
      let value: unknown;
      try {
        value = i.value();
      } catch (err) {
        assert.fail(moved(i.what, i.dependent, `cannot be reached (${(err as Error).message})`));
      }
      const type = i.type ?? "function";
      assert.ok(value !== undefined && value !== null, moved(i.what, i.dependent, "is gone"));
      assert.equal(typeof value, type, moved(i.what, i.dependent, `is a ${typeof value}, not a ${type}`));
      if (i.arity !== undefined) {
        const arity = (value as (...a: unknown[]) => unknown).length;
        assert.equal(arity, i.arity, moved(i.what, i.dependent, `takes ${arity} parameters, not ${i.arity}`));
      }
      const body = normalise(String(value));
      for (const code of i.contains ?? []) assert.ok(body.includes(normalise(code)), moved(i.what, i.dependent, `no longer does \`${code}\``));
    });
  }
});

// The same reliance, exercised: a LeanQuery against a real server through every path the loops use.
describe("LeanQuery on a real connection", () => {
  let db: { url: string; drop: () => Promise<void> };
  let client: pg.Client;
  const connection = () =>
    (client as unknown as { connection: { parsedStatements: Record<string, string>; submittedNamedStatements: Record<string, string> } }).connection;
  before(async () => {
    db = await testDatabase("pg_internals");
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  after(async () => {
    await client.end().catch(() => undefined);
    await db.drop();
  });

  test("a simple query returns its rows as raw text, SQL NULL as null", async () => {
    const q = new LeanQuery("SELECT 1::int, 'a b', NULL::text UNION ALL SELECT 2, '', 'x'");
    assert.deepEqual(
      await q.run(client),
      [
        ["1", "a b", null],
        ["2", "", "x"],
      ],
      moved("DataRowMessage.fields", "leanquery.ts", "no longer holds raw text"),
    );
  });

  test("a prepared statement is parsed once per connection, its parameters encoded as client.query() would", async () => {
    const text = "SELECT ($1::int + 1)::text, $2::text[]::text, ($3::timestamptz = $4::timestamptz)::text";
    const q = new LeanQuery(text, "pgbb_internals_prepared");
    const at = new Date("2026-01-02T03:04:05.678Z");
    const values = [41, ["a", null, 'q"'], at, "2026-01-02 03:04:05.678+00"];
    const expected = (await client.query({ text, values, rowMode: "array" })).rows;
    assert.deepEqual(await q.run(client, values), expected);
    assert.equal(
      connection().parsedStatements.pgbb_internals_prepared,
      text,
      moved("Connection#parsedStatements", "leanquery.ts", "is not filled on ParseComplete"),
    );
    assert.equal(
      connection().submittedNamedStatements.pgbb_internals_prepared,
      undefined,
      moved("Connection#submittedNamedStatements", "leanquery.ts", "keeps a parsed statement"),
    );
    // A second Parse under the same name would fail ("prepared statement … already exists").
    assert.deepEqual(await q.run(client, [1, [], at, "2026-01-02 03:04:05.678+00"]), [["2", "{}", "true"]]);
  });

  test("a pre-built Bind…Sync message runs the prepared statement", async () => {
    const q = new LeanQuery("SELECT $1::int * 2, $2::text", "pgbb_internals_message");
    await q.run(client, [0, ""]);
    const { message, offsets } = bindExecuteMessage("pgbb_internals_message", ["21", 3]);
    message.write("abc", offsets[1], "utf8");
    assert.deepEqual(await q.runMessage(client, message), [["42", "abc"]]);
  });

  test("a server error rejects the run and leaves the connection usable", async () => {
    const div = new LeanQuery("SELECT 1 / $1::int", "pgbb_internals_div");
    await assert.rejects(div.run(client, [0]), { code: "22012" });
    assert.deepEqual(await div.run(client, [1]), [["1"]]);
    // A statement that fails to parse is forgotten, so the next run sends Parse again (and fails the same way,
    // not with "prepared statement does not exist").
    const bad = new LeanQuery("SELEC 1", "pgbb_internals_bad");
    await assert.rejects(bad.run(client), { code: "42601" });
    assert.equal(
      connection().submittedNamedStatements.pgbb_internals_bad,
      undefined,
      moved("Client.prototype._handleErrorMessage", "leanquery.ts", "no longer forgets a failed statement"),
    );
    await assert.rejects(bad.run(client), { code: "42601" });
    assert.deepEqual(await new LeanQuery("SELECT 'still usable'").run(client), [["still usable"]]);
  });

  test("a lost connection rejects the waiting run, and a closed client rejects new ones", async () => {
    const other = new pg.Client({ connectionString: db.url });
    other.on("error", () => undefined);
    await other.connect();
    const pid = (await other.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;
    // The rejection is awaited from the start: the termination can reach `other` before pg_terminate_backend's
    // own answer reaches `client`, and a rejection nobody listens to yet would fail the test by itself.
    const sleeping = assert.rejects(new LeanQuery("SELECT pg_sleep(30)").run(other), (err: Error) => /terminat|Connection/i.test(err.message));
    await client.query("SELECT pg_terminate_backend($1)", [pid]);
    await sleeping;
    await other.end().catch(() => undefined);
    // Rejected either as "not queryable" (node-postgres saw the end) or with the error that ended the
    // connection (it may still be delivering it): never sent, never left hanging.
    await assert.rejects(new LeanQuery("SELECT 1").run(other), /not queryable|terminating connection/);
  });
});
