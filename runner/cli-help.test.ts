// `npm run bench -- --help` and `npm run bench -- <workload> --help` as a person reads them: real CLI processes.
// How long they take is a benchmark (npm run bench:help), not a test.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { PROJECT_ROOT } from "../lib/paths";
import { workloadDefinitions } from "../lib/workloads/config";
import { main } from "./cli";
import { HELP_WIDTH } from "./help-text";

function help(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "runner/cli.ts", ...args], { cwd: PROJECT_ROOT });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("exit", (code) => resolve({ code: code ?? 1, out }));
  });
}

/**
 * The same help as a process prints, read in this process (runner/cli.ts main with its output collected): one real
 * process per workload cost CI a second or more of start-up each, on both Node passes. --help, ceiling and compare
 * still run as real processes.
 */
async function helpHere(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await main(args, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  return { code, out: `${lines.join("\n")}\n` };
}

const longLines = (text: string) => text.split("\n").filter((l) => [...l].length > HELP_WIDTH);
/** A text without its white space: a help wrapped over lines still contains each flag's text. */
const bare = (text: string) => text.replace(/\s+/g, "");
const spelled = (cli: { flag: string; ours?: boolean }) => `${cli.ours ? "--" : "-"}${cli.flag}`;

test("--help lists every workload, the flags every workload has and the run's own, in lines of at most 100 characters", async () => {
  const r = await help(["--help"]);
  assert.equal(r.code, 0);
  assert.deepEqual(longLines(r.out), []);
  for (const d of workloadDefinitions()) assert.match(r.out, new RegExp(`^  ${d.kind} +${d.title}: `, "m"), d.kind);
  const every = ["--processes N", "--warmup DURATION", "-duration DURATION", "-report DURATION"];
  const own = ["-mode WORKLOAD", "--target URL", "-host HOST", "-port N", "-db NAME", "-user NAME", "-password VALUE"];
  for (const f of [...every, ...own, "--preset NAME", "--json FILE", "--save", "--name TEXT", "--tag TAG", "--notes TEXT", "--help, -h"])
    assert.match(r.out, new RegExp(`^  ${f} `, "m"), f);
  // No workload's own flag text: those are in its own --help.
  assert.doesNotMatch(r.out, /^ {2}-writers /m);
  assert.doesNotMatch(r.out, /pubsub: writer connections/);
  assert.equal(r.out.match(/^ {2}-duration /gm)?.length, 1, "each flag once");
});

test("<workload> --help gives that workload's flags with its own text, none of another's, in lines of at most 100 characters", async () => {
  const defs = workloadDefinitions();
  for (const d of defs) {
    const r = await helpHere([d.kind, "--help"]);
    assert.equal(r.code, 0, d.kind);
    assert.deepEqual(longLines(r.out), [], d.kind);
    assert.match(r.out, new RegExp(`^Usage: npm run bench -- ${d.kind} `), d.kind);
    const own = d.fields.flatMap((f) => (f.cli ? [f.cli] : []));
    for (const cli of own) {
      assert.match(r.out, new RegExp(`^  ${spelled(cli)}\\b`, "m"), `${d.kind}: ${spelled(cli)}`);
      assert.ok(bare(r.out).includes(bare(cli.help)), `${d.kind} ${spelled(cli)}: its own text "${cli.help}"`);
    }
    const ownTexts = own.map((c) => bare(c.help));
    const ownFlags = new Set(own.map((c) => c.flag));
    for (const other of defs)
      for (const f of other.fields) {
        if (other === d || !f.cli) continue;
        if (!ownFlags.has(f.cli.flag)) assert.doesNotMatch(r.out, new RegExp(`^  --?${f.cli.flag}\\b`, "m"), `${d.kind} shows ${other.kind}'s ${f.cli.flag}`);
        if (!ownTexts.some((t) => t.includes(bare(f.cli!.help))))
          assert.ok(!bare(r.out).includes(bare(f.cli.help)), `${d.kind} shows ${other.kind}'s text for ${f.cli.flag}: "${f.cli.help}"`);
      }
    for (const p of d.presets) assert.match(r.out, new RegExp(`^  ${p.id}\\b`, "m"), `${d.kind}: preset ${p.id}`);
  }
  // Asked after the flags, by -mode, or with a pasted program name: the same help.
  const first = defs[0].kind;
  const expected = (await helpHere([first, "--help"])).out;
  for (const args of [
    ["-writers", "3", "--help", first],
    ["-mode", first, "-h"],
    ["./pg_msg_bench", `--mode=${first}`, "--help"],
  ])
    assert.equal((await helpHere(args)).out, expected, args.join(" "));
});

test("ceiling --help and compare --help in lines of at most 100 characters", async () => {
  for (const command of ["ceiling", "compare"]) {
    const r = await help([command, "--help"]);
    assert.equal(r.code, 0);
    assert.match(r.out, new RegExp(`^usage: npm run bench -- ${command} `, "i"));
    assert.deepEqual(longLines(r.out), [], command);
  }
});
