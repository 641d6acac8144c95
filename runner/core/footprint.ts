// What a run leaves on the target outside its own schema, undone when it ends, whether it completed, failed or
// was cancelled (docs/operations.md "Targets are left as found"): jobs it scheduled (pg_cron), and extensions it created.
//
// Extensions are per database and shared by every run on it, so a run never simply drops what it created:
// - each run using an extension holds a shared advisory lock on it (session-level, on its admin connection)
//   from before it looks for the extension until its tear-down; a run that ends takes the exclusive lock
//   without waiting, and only if it gets it (no other run holds the shared one) does it drop the extension;
// - only an extension a run created is ever dropped: it is created and marked (its comment starts with
//   EXTENSION_MARK) in one transaction, so one that existed before any run is never marked and never dropped;
//   one a killed run left behind is still marked, and the next run that uses it drops it;
// - DROP EXTENSION without CASCADE: if anything else came to depend on it (a user's index), it stays.
import type pg from "pg";
import { explainPgError } from "../../lib/targets/pgurl";

/** The comment that marks an extension a run created. */
export const EXTENSION_MARK = "pg-broker-bench:";
const MARK_TEXT = `${EXTENSION_MARK} created for a benchmark run; dropped by the last run that uses it`;

/** What else keeps an extension in use besides the runs' locks: pg_cron's job table may hold a user's jobs. */
const STILL_USED_SQL: Record<string, string> = {
  pg_cron: "SELECT EXISTS (SELECT 1 FROM cron.job) AS used",
};

/** The advisory lock key of an extension: a class of our own, then the extension's name. */
const LOCK_KEY = "hashtext('pg-broker-bench extension'), hashtext($1)";

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export class RunFootprint {
  private readonly extensions = new Set<string>();
  private readonly undo: { what: string; fn: (admin: pg.Client) => Promise<unknown> }[] = [];

  constructor(private readonly log: (line: string) => void = () => undefined) {}

  /**
   * Makes sure `name` is installed for this run (created and marked when it is not) and keeps it from being
   * dropped by another run until this one ends. `{ ok: false, why }` when it cannot be had.
   */
  async holdExtension(admin: pg.Client, name: string): Promise<{ ok: true; created: boolean } | { ok: false; why: string }> {
    if (!this.extensions.has(name)) {
      // Waits only while another run is dropping it (a few ms), then finds it gone and creates it again.
      await admin.query(`SELECT pg_advisory_lock_shared(${LOCK_KEY})`, [name]);
      this.extensions.add(name);
    }
    const state = async () =>
      (
        await admin.query<{ available: boolean; installed: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = $1) AS available,
                  EXISTS (SELECT 1 FROM pg_extension WHERE extname = $1) AS installed`,
          [name],
        )
      ).rows[0];
    const before = await state();
    if (before.installed) return { ok: true, created: false };
    if (!before.available)
      return { ok: false, why: `the ${name} extension is not available on the target (its server has no ${name} in its extension directory)` };
    try {
      // Created and marked at once: no moment where a run's extension exists unmarked (it would never be dropped).
      await admin.query("BEGIN");
      await admin.query(`CREATE EXTENSION IF NOT EXISTS ${quoteIdent(name)}`);
      await admin.query(`COMMENT ON EXTENSION ${quoteIdent(name)} IS '${MARK_TEXT}'`);
      await admin.query("COMMIT");
      this.log(`created the ${name} extension for this run (it is dropped when no run uses it)`);
      return { ok: true, created: true };
    } catch (err) {
      await admin.query("ROLLBACK").catch(() => undefined);
      // Another run created it at the same moment (a unique violation on pg_extension): it is there now.
      if ((await state().catch(() => before)).installed) return { ok: true, created: false };
      return { ok: false, why: `the ${name} extension could not be created on the target: ${explainPgError(err)}` };
    }
  }

  /** On a new admin connection (the old one went with a restart of the target): the shared locks on the extensions
   *  this run uses are taken again, as holdExtension took them; session locks end with their session. */
  async retakeLocks(admin: pg.Client): Promise<void> {
    for (const name of this.extensions) await admin.query(`SELECT pg_advisory_lock_shared(${LOCK_KEY})`, [name]);
  }

  /** Registers something to undo at tear-down, before the schema is dropped (e.g. unscheduling a job). */
  atTeardown(what: string, fn: (admin: pg.Client) => Promise<unknown>) {
    this.undo.push({ what, fn });
  }

  /** Runs what was registered with atTeardown, newest first; a failure is logged and the rest still run. */
  async undoRegistered(admin: pg.Client): Promise<void> {
    for (const u of this.undo.splice(0).reverse()) {
      try {
        await u.fn(admin);
      } catch (err) {
        this.log(`could not ${u.what}: ${explainPgError(err)}`);
      }
    }
  }

  /**
   * After the run's schema is dropped: drops each extension this run used that a run created, unless another
   * run still uses it (its shared lock) or something else depends on it. Never throws; returns nothing.
   */
  async releaseExtensions(admin: pg.Client, drop = true): Promise<void> {
    for (const name of this.extensions) {
      try {
        await admin.query(`SELECT pg_advisory_unlock_shared(${LOCK_KEY})`, [name]);
        if (!drop) continue;
        const r = await admin.query<{ got: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS got`, [name]);
        if (!r.rows[0].got) {
          this.log(`left the ${name} extension installed: another run on this target uses it (the last one drops it)`);
          continue;
        }
        try {
          await this.dropIfOurs(admin, name);
        } finally {
          await admin.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`, [name]);
        }
      } catch (err) {
        this.log(`could not release the ${name} extension: ${explainPgError(err)}`);
      }
    }
    this.extensions.clear();
  }

  private async dropIfOurs(admin: pg.Client, name: string) {
    const c = await admin.query<{ comment: string | null }>("SELECT obj_description(oid, 'pg_extension') AS comment FROM pg_extension WHERE extname = $1", [
      name,
    ]);
    if (!c.rows.length || !c.rows[0].comment?.startsWith(EXTENSION_MARK)) return; // gone, or it was there before any run
    const used = STILL_USED_SQL[name];
    if (used && (await admin.query<{ used: boolean }>(used)).rows[0].used) {
      this.log(`left the ${name} extension installed: it holds entries that are not this run's`);
      return;
    }
    try {
      await admin.query(`DROP EXTENSION ${quoteIdent(name)} RESTRICT`);
      this.log(`dropped the ${name} extension a run had created`);
    } catch (err) {
      // 2BP01: objects outside the runs' schemas depend on it now; they are not ours to drop.
      this.log(`left the ${name} extension installed: ${explainPgError(err)}`);
    }
  }
}
