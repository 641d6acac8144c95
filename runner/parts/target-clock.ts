// A process's clock against the TARGET's (issue #23, parts on other hosts): the coordinator and each part carried
// by another runner measure their own clock minus the target server's the same way, and the difference of the two
// is the part's clock minus the coordinator's, whatever hosts they run on. Of PROBES round trips of
// `SELECT clock_timestamp()`, the shortest one's midpoint sets the offset; half its round trip is the uncertainty.
import pg from "pg";
import { clock } from "../core/timing";

const PROBES = 10;

export interface ClockOffset {
  offsetMs: number;
  uncertaintyMs: number;
}

/** This process's clock minus the target's, over one short-lived connection. */
export async function offsetToTarget(targetUrl: string): Promise<ClockOffset> {
  const c = new pg.Client({ connectionString: targetUrl, connectionTimeoutMillis: 10_000, application_name: "pgbb clock probe" });
  await c.connect();
  try {
    const q = "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms";
    await c.query(q); // the first round trip pays for planning and a cold connection
    let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 };
    for (let k = 0; k < PROBES; k++) {
      const t = clock();
      const r = await c.query<{ ms: number }>(q);
      const back = clock();
      if (back - t < best.rtt) best = { rtt: back - t, offset: (t + back) / 2 - Number(r.rows[0].ms) };
    }
    return { offsetMs: best.offset, uncertaintyMs: best.rtt / 2 };
  } finally {
    await c.end().catch(() => undefined);
  }
}
