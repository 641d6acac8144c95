// `npm run bench -- export-bundle <run-id>... --out FILE` and `npm run bench -- import-bundle FILE`: a bundle
// (lib/bundle/) written from, or read into, a control store: DATABASE_URL, or the embedded one of DATA_DIR (or
// --data-dir), as `bench compare` reads it (shared with a running `npm start`, else started for the command). A
// folder without the app's data is refused, never made. A bundle's runs appear in the app's runs list, imported.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { prisma, type PrismaClient } from "../lib/db";
import { dataDir, readEnv } from "../lib/env";
import { describeUrl } from "../lib/targets/pgurl";
import { CONTROL_DB, clusterExists, useCluster } from "../platform/embedded";
import { migrate } from "../platform/migrate";
import type { CliIo } from "./cli-run";
import { htmlPathProblem } from "./cli-html";

export const BUNDLE_USAGE = [
  "usage: npm run bench -- export-bundle <run-id>... --out FILE [--data-dir DIR]",
  "       npm run bench -- import-bundle FILE [--data-dir DIR]",
  "",
  "  export-bundle   write finished runs (with their samples, telemetry and parts) as one bundle file",
  "  import-bundle   read a bundle into this store: its runs join the runs list, marked imported, under their",
  "                  own ids unless taken (then new ones, named); a malformed or foreign file is refused, and",
  "                  nothing is stored",
  "  --data-dir DIR  the app's data folder whose control store to use (default DATA_DIR, else ./.data);",
  "                  DATABASE_URL, when set, names the store instead",
].join("\n");

type Parsed = { kind: "help" } | { kind: "error"; message: string } | { kind: "ok"; args: string[]; out?: string; dataDir?: string };

function parse(args: string[]): Parsed {
  const rest: string[] = [];
  let out: string | undefined;
  let dir: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-h" || a === "--help") return { kind: "help" };
    const m = /^--(out|data-dir)(?:=(.*))?$/.exec(a);
    if (m) {
      const v = m[2] ?? args[++i];
      if (v === undefined || v.trim() === "") return { kind: "error", message: `--${m[1]} needs a value` };
      if (m[1] === "out") out = v;
      else dir = v;
    } else if (a.startsWith("-")) return { kind: "error", message: `unknown option ${a}` };
    else rest.push(a);
  }
  return { kind: "ok", args: rest, out, dataDir: dir };
}

/** The control store to use, named on stderr, and how to let it go; an error when a data folder holds none. */
async function openStore(dirArg: string | undefined, io: CliIo): Promise<{ db: PrismaClient; close: () => Promise<void> } | { error: string }> {
  if (dirArg) process.env.DATA_DIR = dirArg;
  const env = readEnv();
  if (env.DATABASE_URL) {
    io.err(`bench: using the control store at DATABASE_URL (${describeUrl(env.DATABASE_URL)})`);
    const db = prisma(env.DATABASE_URL);
    return { db, close: () => db.$disconnect() };
  }
  const dir = dataDir(env);
  if (!clusterExists(dir, "control"))
    return { error: `no control store in ${dir}: give the data folder of an app that ran (--data-dir DIR, or DATA_DIR), or DATABASE_URL` };
  const server = await useCluster(dir, "control", env.EMBEDDED_PG_PORT);
  const url = server.url(CONTROL_DB);
  if (server.owned) await migrate(url);
  io.err(`bench: using the control store in ${dir} (embedded Postgres ${server.owned ? "started for this command" : "of the running npm start"})`);
  const db = prisma(url);
  return {
    db,
    close: async () => {
      await db.$disconnect();
      await server.stop();
    },
  };
}

export async function main(command: "export-bundle" | "import-bundle", args: string[], io: CliIo): Promise<number> {
  const p = parse(args);
  if (p.kind === "help") {
    io.out(BUNDLE_USAGE);
    return 0;
  }
  const bad = (message: string) => (io.err(`bench ${command}: ${message}\n${BUNDLE_USAGE}`), 2);
  if (p.kind === "error") return bad(p.message);
  if (command === "export-bundle") {
    if (!p.args.length) return bad("give the ids of the runs to export (r_…)");
    if (!p.out) return bad("--out FILE names the bundle's file");
    const problem = htmlPathProblem(p.out);
    if (problem) return bad(problem.replace(/^--html/, "--out"));
  } else if (p.args.length !== 1) return bad("give one bundle file to import");
  const store = await openStore(p.dataDir, io);
  if ("error" in store) {
    io.err(`bench ${command}: ${store.error}`);
    return 1;
  }
  try {
    return command === "export-bundle" ? await exportTo(p.args, p.out!, store.db, io) : await importFrom(p.args[0], store.db, io);
  } finally {
    await store.close().catch(() => undefined);
  }
}

async function exportTo(ids: string[], out: string, db: PrismaClient, io: CliIo): Promise<number> {
  const { exportBundle, NotExportable } = await import("../lib/bundle/export");
  try {
    const bundle = await exportBundle(ids, { kind: "run" }, db);
    writeFileSync(path.resolve(out), JSON.stringify(bundle));
    io.out(`bundle of ${ids.length} ${ids.length === 1 ? "run" : "runs"} written to ${path.resolve(out)}`);
    return 0;
  } catch (err) {
    if (!(err instanceof NotExportable)) throw err;
    io.err(`bench export-bundle: ${err.message}`);
    return 1;
  }
}

async function importFrom(file: string, db: PrismaClient, io: CliIo): Promise<number> {
  const { importBundle, importedText } = await import("../lib/bundle/import");
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path.resolve(file), "utf8"));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    io.err(
      `bench import-bundle: ${e.code === "ENOENT" ? `${path.resolve(file)} does not exist` : e instanceof SyntaxError ? `${file} is not a bundle: it is not JSON` : e.message}`,
    );
    return 1;
  }
  const r = await importBundle(raw, db);
  if (!r.ok) {
    io.err(`bench import-bundle: ${r.error}`);
    return 1;
  }
  io.out(importedText(r));
  io.out(r.comparison ? `in the app: /compare?ids=${r.comparison.ids.join(",")}` : `in the app: /runs/${r.runs[0]?.id}`);
  return 0;
}
