// A standby's data folder made as `pg_basebackup -R --slot` makes one, without pg_basebackup (the embedded package
// ships only initdb, pg_ctl and postgres): the primary's folder copied file by file, leaving out what pg_basebackup
// leaves out, then standby.signal and the connection settings in postgresql.auto.conf. The copy is taken either
// while the primary is stopped or between pg_backup_start and pg_backup_stop (platform/replicated.ts decides).
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, type Stats, writeFileSync } from "node:fs";
import path from "node:path";

/** Folders whose contents pg_basebackup leaves out (src/backend/backup/basebackup.c excludeDirContents). */
const EMPTIED = new Set(["pg_stat_tmp", "pg_replslot", "pg_dynshmem", "pg_notify", "pg_serial", "pg_snapshots", "pg_subtrans"]);
/** Files it leaves out (excludeFiles), wherever they are. */
const LEFT_OUT = new Set(["postmaster.pid", "postmaster.opts", "pg_internal.init", "backup_label", "tablespace_map", "current_logfiles"]);

/** The `postgres` user's ids when this process is root (Postgres then runs as it), else null: files stay ours. */
export function postgresUserIds(): { uid: number; gid: number } | null {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return null;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

/** Gives a file or folder the owner and mode Postgres expects: those of the primary's original. */
function likeOriginal(file: string, st: Stats) {
  chmodSync(file, st.mode & 0o7777);
  if (typeof process.getuid === "function" && process.getuid() === 0) chownSync(file, st.uid, st.gid);
}

/**
 * Copies the primary's data folder `from` into `to` (made afresh). `online`: the primary is running inside
 * pg_backup_start, so pg_wal's segments are left out (the standby streams them through its slot), a file that
 * vanishes meanwhile is skipped, and global/pg_control is copied last, as pg_basebackup does.
 */
export function copyDataFolder(from: string, to: string, online: boolean) {
  rmSync(to, { recursive: true, force: true });
  const control = path.join(from, "global", "pg_control");
  const copyFile = (s: string, d: string, st: Stats) => {
    try {
      copyFileSync(s, d);
      likeOriginal(d, st);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e; // removed while we copy
    }
  };
  /** `keep`: "all", "folders" (pg_wal while online: its subfolders, none of its segments) or "none" (emptied). */
  const copyDir = (src: string, dst: string, keep: "all" | "folders" | "none") => {
    mkdirSync(dst);
    likeOriginal(dst, lstatSync(src));
    if (keep === "none") return;
    for (const name of readdirSync(src)) {
      if (LEFT_OUT.has(name) || name.startsWith("pgsql_tmp")) continue;
      const s = path.join(src, name);
      let st: Stats;
      try {
        st = lstatSync(s);
      } catch {
        continue; // removed while we copy (a temporary file of the running primary)
      }
      const inner = EMPTIED.has(name) ? "none" : online && src === from && name === "pg_wal" ? "folders" : keep;
      if (st.isDirectory()) copyDir(s, path.join(dst, name), inner);
      else if (st.isFile() && keep === "all" && s !== control) copyFile(s, path.join(dst, name), st);
    }
  };
  copyDir(from, to, "all");
  copyFile(control, path.join(to, "global", "pg_control"), lstatSync(control));
}

/** The cluster's system identifier (the first 8 bytes of global/pg_control): a standby only follows a primary of the same one. */
export function systemIdentifier(dataDir: string): string | undefined {
  try {
    return readFileSync(path.join(dataDir, "global", "pg_control"))
      .readBigUInt64LE(0)
      .toString();
  } catch {
    return undefined;
  }
}

/** Writes a file of the standby's folder as Postgres's own: owned by the postgres user when we are root, mode 0600. */
export function writeOwned(file: string, text: string) {
  writeFileSync(file, text, { mode: 0o600 });
  const ids = postgresUserIds();
  if (ids) chownSync(file, ids.uid, ids.gid);
}

/**
 * What `pg_basebackup -R --slot` writes: standby.signal, and primary_conninfo (naming the standby by its
 * application_name, which synchronous_standby_names lists) and primary_slot_name in postgresql.auto.conf, replacing
 * the ones an earlier start wrote (the primary's or the relay's port may have changed since).
 */
export function writeStandbySettings(dataDir: string, s: { name: string; port: number; password: string }) {
  writeOwned(path.join(dataDir, "standby.signal"), "");
  const auto = path.join(dataDir, "postgresql.auto.conf");
  const kept = existsSync(auto)
    ? readFileSync(auto, "utf8")
        .split("\n")
        .filter((l) => l && !/^\s*primary_(conninfo|slot_name)\s*=/.test(l))
    : ["# Do not edit this file manually!", "# It will be overwritten by the ALTER SYSTEM command."];
  const conninfo = `user=postgres password=${quoteConninfo(s.password)} host=127.0.0.1 port=${s.port} application_name=${s.name}`;
  writeOwned(auto, [...kept, `primary_conninfo = '${conninfo.replaceAll("'", "''")}'`, `primary_slot_name = '${s.name}'`, ""].join("\n"));
}

/** A libpq conninfo value: quoted, with \ and ' escaped. */
function quoteConninfo(v: string): string {
  return `'${v.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}
