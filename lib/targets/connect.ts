// Opening a connection to a user-given Postgres with a bounded wait and a one-line, password-masked error.
import pg from "pg";
import { explainPgError, maskUrl } from "./pgurl";

/** Connects (at most `timeoutMs`), runs `SELECT version()`, closes. Throws Error("<NAME>: cannot connect to … : cause"). */
export async function probePostgres(name: string, url: string, timeoutMs = 8000): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const r = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    return r.rows[0].v;
  } catch (err) {
    throw new Error(`${name}: cannot connect to ${maskUrl(url)}: ${explainPgError(err)}`, { cause: err });
  } finally {
    await client.end().catch(() => undefined);
  }
}
