// The files of logic only (scripts/test-order.ts LOGIC_ONLY), loaded into this one process by `npm test`
// (scripts/test-run.ts runs `node --test` on this file with their paths in PGBB_LOGIC_FILES): a process each loaded
// their modules again, most of their CPU. node's own --test-isolation=none under tsx lost an error a file threw
// while loading (the file's tests passed, the run too), so each is imported here and one that throws is a failed
// test named by its path, as node's runner names a file that did not load (scripts/tap.ts filesThatDidNotLoad).
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "../lib/paths";

const files: string[] = JSON.parse(process.env.PGBB_LOGIC_FILES ?? "[]");

void (async () => {
  for (const file of files) {
    try {
      await import(pathToFileURL(path.join(PROJECT_ROOT, file)).href);
    } catch (err) {
      test(file, () => {
        throw err;
      });
    }
  }
})();
