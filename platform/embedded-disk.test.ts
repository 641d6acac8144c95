// A start on a disk without room says so: the embedded Postgres's data folder on a small file system of its own
// (a tmpfs, mounted for the test), really filled. Mounting needs root (CI here runs as root); elsewhere the test
// is skipped, saying why.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { freePort } from "../lib/testing";
import { DiskFullError, diskFullMessage, startEmbedded } from "./embedded";

/** Mounts a tmpfs of `mib` MiB on a fresh folder; null (with why) when this machine does not allow it. */
function smallDisk(mib: number): { dir: string; unmount(): void } | string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pgbb-small-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${mib}m,mode=0755`, "tmpfs", dir], { stdio: "pipe" });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return `cannot mount a tmpfs here (${String((err as Error).message).split("\n")[0]})`;
  }
  chmodSync(dir, 0o755);
  return {
    dir,
    unmount() {
      execFileSync("umount", [dir], { stdio: "pipe" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes zeros into `dir` until the file system refuses: ENOSPC. */
function fill(dir: string) {
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; ; i++) {
    try {
      writeFileSync(path.join(dir, `filler-${i}`), chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOSPC") return;
      throw err;
    }
  }
}

test("a restart on a full disk fails at once with a first line naming the disk, its mount and the space left", async (t) => {
  const disk = smallDisk(96);
  if (typeof disk === "string") return t.skip(disk);
  try {
    const port = await freePort();
    // A cluster made while there was room, stopped, then the disk filled (by the run that filled it, say).
    const server = await startEmbedded({ dataDir: disk.dir, port, databases: [] });
    await server.stop();
    fill(disk.dir);
    const started = Date.now();
    await assert.rejects(startEmbedded({ dataDir: disk.dir, port, databases: [] }), (err: Error) => {
      assert.ok(err instanceof DiskFullError, `a DiskFullError (the supervisor does not retry those): ${err.message}`);
      // The first line is what the supervisor's log and the app show: it alone must say what is wrong and what to do.
      const first = err.message.split("\n")[0];
      assert.match(
        first,
        new RegExp(
          `^The embedded Postgres cannot start: no space left on its disk: the disk holding ${disk.dir}/pg \\(mounted at ${disk.dir}\\) has [\\d.,]+ (B|KiB|MiB) free of 96 MiB\\. Free some space on that disk`,
        ),
      );
      return true;
    });
    assert.ok(Date.now() - started < 60_000, "it fails, it does not hang");
  } finally {
    disk.unmount();
  }
});

test("Postgres's own words for a full disk, at initdb or start, give the same message; other failures do not", () => {
  const dir = os.tmpdir();
  for (const line of [
    'FATAL:  could not write lock file "postmaster.pid": No space left on device',
    'PANIC:  could not write to file "pg_wal/xlogtemp.123": No space left on device',
    'ERROR:  could not extend file "base/5/16384": wrote only 4096 of 8192 bytes at block 3',
  ])
    assert.match(
      diskFullMessage(dir, line) ?? "",
      new RegExp(`^The embedded Postgres cannot start: no space left on its disk: the disk holding ${dir} \\(mounted at /\\S*\\) has [\\d.,]+ \\S+ free of`),
    );
  assert.equal(diskFullMessage(dir, 'FATAL:  could not create lock file "postmaster.pid": Permission denied'), null);
});
