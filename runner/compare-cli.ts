// `npm run bench -- compare <run-id|reference-id|import-id>... [--baseline ID] [--format table|md|csv|json]`
// prints the same comparison as /compare (lib/compare/compare.ts). Runs and imports come from the control store:
// DATABASE_URL, or the embedded one of DATA_DIR (shared with a running `npm start`, else started for the
// duration of the command); the store read is named on stderr, and a DATA_DIR that holds none is refused, never
// made. References need no database.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { buildComparison } from "../lib/compare/compare";
import { toCsv } from "../lib/compare/export-csv";
import { toJson } from "../lib/compare/export-json";
import { toMarkdown } from "../lib/compare/export-markdown";
import { toTextTable } from "../lib/compare/export-text";
import { QUEUE_LENSES } from "../lib/compare/sustained";
import { isValidKey } from "../lib/compare/view-state";
import { loadComparables } from "../lib/compare/load";
import { prisma } from "../lib/db";
import { CONTROL_DB, clusterExists, useCluster } from "../platform/embedded";
import { dataDir, type Env, readEnv } from "../lib/env";
import { describeUrl } from "../lib/targets/pgurl";
import { migrate } from "../platform/migrate";
import { REFERENCES } from "../lib/references/references";
import type { Comparison } from "../lib/compare/compare";
import { htmlPathProblem } from "./cli-html";

const FORMATS = ["table", "md", "csv", "json"] as const;
type Format = (typeof FORMATS)[number];

export function usage(): string {
  return [
    "usage: npm run bench -- compare <id>... [--baseline <id>] [--format table|md|csv|json] [--html FILE]",
    "",
    "  <id>   a run id (r_…), an imported result (imp_…) or a published reference (ref:<id> or <id>):",
    ...REFERENCES.map((r) => `           ref:${r.id}`),
    "  --baseline <id>   deltas and ratios against this item (default: the first)",
    "  --format          table (default), md (Markdown, as the page's export), csv or json",
    "  --html FILE       also write it as one self-contained HTML file (tables, bars; opens offline)",
    "",
    `Runs of different queue-like workloads (${Object.keys(QUEUE_LENSES).join(", ")})`,
    'come first in one table, "Which sustained what": rate offered, consumed, kept up, latency from',
    "the scheduled enqueue.",
    "",
    "Runs and imports are read from DATABASE_URL, or else from the embedded Postgres in DATA_DIR (default",
    "./.data of the current folder), named on stderr. A DATA_DIR without a store is refused.",
  ].join("\n");
}

type Parsed = { kind: "help" } | { kind: "error"; message: string } | { kind: "ok"; ids: string[]; baseline: string | null; format: Format; html?: string };

const refIds = new Set(REFERENCES.map((r) => r.id));
/** "pubsub-4vcpu-single-node" → "ref:pubsub-4vcpu-single-node"; other ids as given. */
const normalise = (id: string) => (refIds.has(id) ? `ref:${id}` : id);

export function parseCompareArgs(args: string[]): Parsed {
  const ids: string[] = [];
  let baseline: string | null = null;
  let format: Format = "table";
  let html: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-h" || a === "--help") return { kind: "help" };
    const m = /^--(baseline|format|html)(?:=(.*))?$/.exec(a);
    if (m) {
      const v = m[2] ?? args[++i];
      if (v === undefined || v.trim() === "") return { kind: "error", message: `--${m[1]} needs a value` };
      if (m[1] === "baseline") baseline = normalise(v);
      else if (m[1] === "html") html = v;
      else if ((FORMATS as readonly string[]).includes(v)) format = v as Format;
      else return { kind: "error", message: `--format must be one of ${FORMATS.join(", ")}, not "${v}"` };
      continue;
    }
    if (a.startsWith("-")) return { kind: "error", message: `unknown option ${a}` };
    for (const part of a.split(",").filter(Boolean)) {
      const id = normalise(part);
      if (!isValidKey(id))
        return { kind: "error", message: `"${part}" is not a run id (r_…), an import id (imp_…) or a reference (${REFERENCES.map((r) => r.id).join(", ")})` };
      if (!ids.includes(id)) ids.push(id);
    }
  }
  if (!ids.length) return { kind: "error", message: "give at least one run id, import id or reference to compare" };
  if (baseline && !ids.includes(baseline)) return { kind: "error", message: `--baseline ${baseline} is not one of the compared ids` };
  return { kind: "ok", ids, baseline, format, ...(html ? { html } : {}) };
}

export interface CompareIo {
  out(s: string): void;
  err(s: string): void;
}
const consoleIo: CompareIo = { out: (s) => void process.stdout.write(s), err: (s) => void process.stderr.write(s) };

/** Why there is no store to read, and how to point at one. */
function noStore(env: Env): string {
  const dir = dataDir(env);
  const where = process.env.DATA_DIR?.trim() ? `DATA_DIR ${dir}` : `${dir} (DATA_DIR's default, ./.data of the current folder)`;
  return [
    `no control store found: DATABASE_URL is not set and ${where} holds no data of the app.`,
    "Run it from the project folder whose `npm start` (or --save) stored the runs, or point at the store:",
    "DATA_DIR=/path/to/project/.data npm run bench -- compare …",
    "DATABASE_URL=postgresql://user@host:5432/db npm run bench -- compare …",
  ].join("\n  ");
}

export async function main(args: string[], io: CompareIo = consoleIo): Promise<number> {
  const p = parseCompareArgs(args);
  if (p.kind === "help") {
    io.out(`${usage()}\n`);
    return 0;
  }
  if (p.kind === "error") {
    io.err(`bench compare: ${p.message}\n${usage()}\n`);
    return 2;
  }

  // The report's file is checked before any store is opened: a typo costs nothing.
  const htmlProblem = p.html === undefined ? null : htmlPathProblem(p.html);
  if (htmlProblem) {
    io.err(`bench compare: ${htmlProblem}\n`);
    return 2;
  }
  const needsDb = p.ids.some((id) => !id.startsWith("ref:"));
  let stopEmbedded: (() => Promise<void>) | undefined;
  let controlUrl: string | undefined;
  try {
    const env = readEnv();
    controlUrl = env.DATABASE_URL;
    if (needsDb && !controlUrl) {
      // A folder without the app's data is refused before anything is started, so nothing is made there.
      if (!clusterExists(dataDir(env), "control")) {
        io.err(`bench compare: ${noStore(env)}\n`);
        return 1;
      }
      const server = await useCluster(dataDir(env), "control", env.EMBEDDED_PG_PORT);
      controlUrl = server.url(CONTROL_DB);
      if (server.owned) await migrate(controlUrl);
      stopEmbedded = () => server.stop();
      const whose = server.owned ? "started for this command" : "of the running npm start";
      io.err(`bench compare: reading the control store in DATA_DIR ${dataDir(env)} (embedded Postgres ${whose})\n`);
    } else if (needsDb) io.err(`bench compare: reading the control store at DATABASE_URL (${describeUrl(controlUrl!)})\n`);
    const { items, problems } = await loadComparables(p.ids, needsDb ? prisma(controlUrl) : undefined, { samples: p.html !== undefined });
    if (problems.length) {
      for (const pr of problems) io.err(`bench compare: ${pr.message}\n`);
      return 1;
    }
    const cmp = buildComparison(items, p.baseline);
    const generatedAt = new Date().toISOString();
    if (p.format === "md") io.out(toMarkdown(cmp, { generatedAt }));
    else if (p.format === "csv") io.out(toCsv(cmp));
    else if (p.format === "json") io.out(`${JSON.stringify(toJson(cmp, { generatedAt }), null, 2)}\n`);
    else io.out(toTextTable(cmp));
    return p.html ? await writeHtml(p.html, cmp, generatedAt, io) : 0;
  } catch (err) {
    io.err(`bench compare: ${(err as Error).message}\n`);
    return 1;
  } finally {
    if (needsDb && controlUrl)
      await prisma(controlUrl)
        .$disconnect()
        .catch(() => undefined);
    await stopEmbedded?.();
  }
}

/** --html: the comparison's report (components/report/render.tsx), the same the compare page exports. */
async function writeHtml(file: string, cmp: Comparison, exportedAt: string, io: CompareIo): Promise<number> {
  const { renderCompareReport } = await import("../components/report/render");
  const abs = path.resolve(file);
  try {
    writeFileSync(abs, renderCompareReport(cmp, { exportedAt }));
  } catch (err) {
    io.err(`bench compare: the report could not be written to ${abs}: ${(err as Error).message}\n`);
    return 1;
  }
  io.err(`bench compare: report written to ${abs}\n`);
  return 0;
}
