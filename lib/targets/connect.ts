// Opening a connection to a user-given Postgres with a bounded wait and a one-line, password-masked error.
import pg from "pg";
import { connectFailure } from "./pgurl";

/** Connects (at most `timeoutMs`), runs `SELECT version()`, closes. Throws Error("<NAME>: cannot connect to … : cause"). */
export async function probePostgres(name: string, url: string, timeoutMs = 8000): Promise<string> {
  let client: pg.Client | undefined;
  try {
    // Inside the try: the driver parses the URL here, and a missing sslkey file throws naming it.
    client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
    client.on("error", () => undefined);
    await client.connect();
    const r = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    return r.rows[0].v;
  } catch (err) {
    throw new Error(connectFailure(`${name}: cannot connect to`, url, err), { cause: err });
  } finally {
    await client?.end().catch(() => undefined);
  }
}
