// `npm run bench:verdict -- [--target URL] [case …]`
// Provokes each verdict category on this machine and prints what was provoked beside what the verdict said:
// every case file in scripts/verdict-cases/ (or only the cases named), one after another, each printing the
// expected categories, the verdict's category and headline, and MATCH or MISMATCH. Without --target it starts
// a private embedded Postgres in a temporary folder and removes it afterwards.
import { readdirSync } from "node:fs";
import path from "node:path";
import { describeUrl } from "../lib/targets/pgurl";
import { PROJECT_ROOT } from "../lib/paths";
import { startTestServer } from "../lib/testing";
import type { VerdictCase } from "./verdict-cases/_case";
import { countWords } from "../lib/words";

const CASES_DIR = path.join(PROJECT_ROOT, "scripts", "verdict-cases");

/** The case files, in name order; "_" files hold shared code, not cases. */
function caseFiles(): string[] {
  return readdirSync(CASES_DIR)
    .filter((f) => f.endsWith(".ts") && !f.startsWith("_"))
    .sort();
}

async function loadCase(file: string): Promise<VerdictCase> {
  const mod = (await import(path.join(CASES_DIR, file))) as { default?: VerdictCase };
  const c = mod.default;
  if (!c || typeof c.run !== "function" || !Array.isArray(c.expected))
    throw new Error(`scripts/verdict-cases/${file} does not export a case by default ({ name, provoked, expected, run })`);
  return c;
}

function parseArgs(argv: string[]): { target?: string; names: string[] } {
  const names: string[] = [];
  let target: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const m = argv[i].match(/^--?target(?:=(.*))?$/);
    if (m) {
      target = m[1] ?? argv[++i];
      if (!target) throw new Error("--target needs a connection URL");
    } else if (argv[i].startsWith("-")) throw new Error(`unknown flag ${argv[i]} (flags: --target URL; then case names)`);
    else names.push(argv[i].replace(/\.ts$/, ""));
  }
  return { target, names };
}

async function main() {
  const { target, names } = parseArgs(process.argv.slice(2));
  const files = caseFiles();
  const unknown = names.filter((n) => !files.includes(`${n}.ts`));
  if (unknown.length) throw new Error(`no such case: ${unknown.join(", ")} (cases: ${files.map((f) => f.replace(/\.ts$/, "")).join(", ")})`);
  const chosen = names.length ? files.filter((f) => names.includes(f.replace(/\.ts$/, ""))) : files;
  const server = target ? undefined : await startTestServer();
  const url = target ?? server!.url("postgres");
  let matched = 0;
  try {
    console.log(`target: ${target ? describeUrl(url) : `a private embedded Postgres (${describeUrl(url)})`}`);
    for (const file of chosen) {
      const c = await loadCase(file);
      console.log(`\n=== ${c.name} ===`);
      console.log(`provoked   ${c.provoked}`);
      console.log(`expected   ${c.expected.join(" or ")}${c.mentions?.length ? `, saying ${c.mentions.map(String).join(" and ")}` : ""}`);
      try {
        const summary = await c.run({ targetUrl: url, log: () => undefined });
        const v = summary.telemetry?.verdict;
        if (!v) {
          console.log("verdict    none (the run carried no telemetry)\nMISMATCH");
          continue;
        }
        const missing = (c.mentions ?? []).filter((m) => !m.test(v.statement));
        const ok = c.expected.includes(v.category) && missing.length === 0;
        if (ok) matched++;
        console.log(`verdict    ${v.category}${v.also.length ? ` (also: ${v.also.join(", ")})` : ""}`);
        console.log(`headline   ${v.statement}`);
        if (missing.length) console.log(`not said   ${missing.map(String).join(", ")}`);
        console.log(ok ? "MATCH" : "MISMATCH");
      } catch (err) {
        console.log(`the run failed: ${(err as Error).message}\nMISMATCH`);
      }
    }
    console.log(`\n${matched} of ${countWords(chosen.length, "case")} matched`);
  } finally {
    await server?.stop();
  }
}

main().catch((err) => {
  console.error(`bench:verdict: ${(err as Error).message}`);
  process.exit(1);
});
