// A count is written with its noun in agreement ("50,041 messages", "1 group"), never as "50041 message(s)" or
// "1 groups": every sentence builds it with lib/words.ts countWords (and agree for its verb).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "./paths";
import { agree, countWords } from "./words";

test("a count reads with its noun and verb in agreement", () => {
  assert.equal(countWords(50_041, "message"), "50,041 messages");
  assert.equal(countWords(1, "message"), "1 message");
  assert.equal(countWords(1, "group"), "1 group");
  assert.equal(countWords(0, "row"), "0 rows");
  assert.equal(`${countWords(1, "message")} ${agree(1, "were", "was")} unread`, "1 message was unread");
  assert.equal(`${countWords(2, "message")} ${agree(2, "were", "was")} unread`, "2 messages were unread");
});

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "generated" || e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

test('no sentence writes a count as "N thing(s)" or "(N groups)": each uses countWords', () => {
  const found: string[] = [];
  for (const dir of ["lib", "app", "components", "runner", "workloads", "platform", "scripts"])
    for (const file of sources(path.join(PROJECT_ROOT, dir)))
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (/\$\{[^{}]+\} [a-z-]+\(s\)|\$\{[^{}]+\} groups\)/.test(line)) found.push(`${path.relative(PROJECT_ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
  assert.deepEqual(found, [], `counts written without agreement:\n${found.join("\n")}`);
});
