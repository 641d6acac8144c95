// Preparing a replicated cluster's primary and its standbys' folders (platform/replicated.ts runs these in turn):
// synchronous_standby_names set and checked by Postgres, one physical slot per standby made with SQL (as
// `pg_basebackup --slot` makes it), and each standby folder that is missing or no longer follows this primary made
// again, by a copy of the primary's folder (platform/standby-files.ts).
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { type EmbeddedServer, StartupError } from "./embedded";
import { copyDataFolder, systemIdentifier, writeOwned } from "./standby-files";
import { countWords } from "../lib/words";

/** Sets synchronous_standby_names on the primary (ALTER SYSTEM, so Postgres checks it) and reloads. */
async function setSyncNames(client: pg.Client, value: string) {
  try {
    await client.query(`ALTER SYSTEM SET synchronous_standby_names = ${client.escapeLiteral(value)}`);
  } catch (err) {
    const detail = (err as { detail?: string }).detail;
    throw new StartupError(`synchronous_standby_names '${value}' is refused by Postgres: ${(err as Error).message}${detail ? ` (${detail})` : ""}`);
  }
  await client.query("SELECT pg_reload_conf()");
}

/**
 * Makes the physical slot of each standby that lacks one (reserving WAL at once, as `pg_basebackup --slot` does) and
 * drops the inactive slots of standbys no longer asked for (pg2…pgN of a larger cluster), which would otherwise keep
 * WAL forever. Returns the names whose slot was made now: their folders, if any, cannot resume and are made again.
 */
async function ensureSlots(client: pg.Client, names: string[]): Promise<string[]> {
  const r = await client.query<{ slot_name: string; active: boolean }>("SELECT slot_name, active FROM pg_replication_slots WHERE slot_type = 'physical'");
  const have = new Set(r.rows.map((s) => s.slot_name));
  for (const s of r.rows)
    if (/^pg\d+$/.test(s.slot_name) && !names.includes(s.slot_name) && !s.active) await client.query("SELECT pg_drop_replication_slot($1)", [s.slot_name]);
  const made = names.filter((n) => !have.has(n));
  for (const n of made) await client.query("SELECT pg_create_physical_replication_slot($1, true)", [n]);
  return made;
}

/** Whether the standby folder `dir` can follow the primary of `primaryDir` as it is (same cluster, still a standby). */
function standbyUsable(dir: string, primaryDir: string): boolean {
  return (
    existsSync(path.join(dir, "PG_VERSION")) &&
    existsSync(path.join(dir, "standby.signal")) &&
    systemIdentifier(dir) !== undefined &&
    systemIdentifier(dir) === systemIdentifier(primaryDir)
  );
}

/** Removes the folders and logs of standbys beyond the ones asked for (pg4 when two are asked), and says so. */
function removeExtraStandbys(home: string, names: string[], notes: string[]) {
  for (let k = names.length + 2; existsSync(path.join(home, `pg${k}`)); k++) {
    rmSync(path.join(home, `pg${k}`), { recursive: true, force: true });
    rmSync(path.join(home, `pg${k}.log`), { force: true });
    notes.push(`Removed the standby pg${k} of an earlier start: ${countWords(names.length, "standby")} asked now.`);
  }
}

/**
 * Copies the running primary's folder into each of `dirs` between pg_backup_start and pg_backup_stop, and writes the
 * backup_label pg_backup_stop returns into each: the standby replays from the backup's start, streaming the WAL
 * its slot (made before) has kept.
 */
async function copyOnline(client: pg.Client, primaryDir: string, dirs: string[]) {
  await client.query("SELECT pg_backup_start($1, true)", ["pgbb standby"]);
  let label: string;
  try {
    for (const dir of dirs) copyDataFolder(primaryDir, dir, true);
  } finally {
    label = (await client.query<{ labelfile: string }>("SELECT labelfile FROM pg_backup_stop(false)")).rows[0].labelfile;
  }
  for (const dir of dirs) writeOwned(path.join(dir, "backup_label"), label);
}

/**
 * On the primary `first`: synchronous_standby_names, the slots, and each standby folder that cannot follow it made
 * again: copied while the primary is stopped when it was made just now (its first start), else between
 * pg_backup_start and pg_backup_stop. Returns the primary running (`restart()`ed when it was stopped for the copy).
 */
export async function prepareStandbys(o: {
  home: string;
  names: string[];
  syncNames: string;
  first: EmbeddedServer;
  /** The primary was made just now: nothing can have been written to it yet. */
  fresh: boolean;
  notes: string[];
  restart: () => Promise<EmbeddedServer>;
}): Promise<EmbeddedServer> {
  const { fresh } = o;
  const primaryDir = path.join(o.home, "pg1");
  const client = new pg.Client({ connectionString: o.first.url("postgres") });
  await client.connect();
  let remake: string[];
  try {
    await setSyncNames(client, o.syncNames);
    const slotMade = await ensureSlots(client, o.names);
    removeExtraStandbys(o.home, o.names, o.notes);
    remake = o.names.filter((n) => slotMade.includes(n) || !standbyUsable(path.join(o.home, n), primaryDir));
    if (remake.length && !fresh)
      await copyOnline(
        client,
        primaryDir,
        remake.map((n) => path.join(o.home, n)),
      );
  } finally {
    await client.end();
  }
  if (!remake.length) return o.first;
  o.notes.push(
    `Made the standby folder(s) ${remake.join(", ")} from the primary's (${fresh ? "copied while it was stopped" : "copied between pg_backup_start and pg_backup_stop"}).`,
  );
  if (!fresh) return o.first;
  await o.first.stop();
  for (const n of remake) copyDataFolder(primaryDir, path.join(o.home, n), false);
  return o.restart();
}
