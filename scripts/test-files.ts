// Runs node test files several at a time, starting them in the order given, reporting as `node --test` with
// `--test-reporter=spec` to stdout and `--test-reporter=tap` to a file. `node --test <files>` sorts the files by
// path whatever order they are given in, which left scripts/test-order.ts's longest-first order unused: the
// app's build and the slowest files started last and ended each pass alone. node:test's run() keeps the order.
//   node --import tsx scripts/test-files.ts <tap file> <concurrency> <file>…
// Each file runs in a process of its own, with this process's Node flags (--import tsx) and environment.
import { createWriteStream } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { run } from "node:test";
import { spec, tap } from "node:test/reporters";

const [tapFile, concurrency, ...files] = process.argv.slice(2);
if (!tapFile || !(Number(concurrency) >= 1) || !files.length) {
  console.error("usage: node --import tsx scripts/test-files.ts <tap file> <concurrency> <file>…");
  process.exit(2);
}

// Absolute paths, as `node --test` names them: a file that fails to load is reported under its path (scripts/tap.ts).
const events = run({ files: files.map((f) => path.resolve(f)), concurrency: Number(concurrency) });
let passed = false;
events.on("test:summary", (s) => {
  if (s.file === undefined) passed = s.success; // the whole run's summary, after every file's own
});
// One stream of events, two reporters: each reads its own copy.
const toSpec = new PassThrough({ objectMode: true });
const toTap = new PassThrough({ objectMode: true });
events.pipe(toSpec);
events.pipe(toTap);
toSpec.compose(new spec()).pipe(process.stdout);
toTap.compose(tap).pipe(createWriteStream(tapFile));
process.on("exit", () => {
  if (!passed) process.exitCode = 1;
});
