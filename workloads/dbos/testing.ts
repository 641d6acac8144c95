// Test helpers of the DBOS workloads' integration tests: a run on a test database, its schema kept for
// inspection, with an optional tamper step once the measured window has started.
import pg from "pg";
import { testDatabase } from "../../lib/testing";
import { WorkloadConfig, type WorkloadInput } from "../../lib/workloads/config";
import { runWorkload } from "../../runner/harness";

export async function dbosTestTarget(label: string) {
  const db = await testDatabase(label);
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  const count = async (sql: string) => Number((await admin.query<{ n: string }>(sql)).rows[0].n);
  /** Runs `input`, keeping its schema (dropped again after `check`); `during` runs once measuring starts. */
  async function run(
    input: WorkloadInput,
    during?: (schema: string) => Promise<void>,
    check?: (schema: string, summary: Awaited<ReturnType<typeof runWorkload>>) => Promise<void>,
  ) {
    let schema = "";
    let tamper: Promise<void> | undefined;
    const summary = await runWorkload(WorkloadConfig.parse(input), db.url, {
      keepSchema: true,
      drainSeconds: 3,
      onSchema: (s) => (schema = `"${s}"`),
      onPhase: (p) => {
        if (p === "measuring" && during) tamper = during(schema);
      },
    });
    await tamper;
    try {
      await check?.(schema, summary);
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
    return summary;
  }
  return {
    url: db.url,
    admin,
    count,
    run,
    async close() {
      await admin.end();
      await db.drop();
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
