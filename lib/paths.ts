import path from "node:path";
import { fileURLToPath } from "node:url";

/** The project's root folder (where package.json lives), independent of the current directory. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Data the tests and scripts need that comes from outside the project (see fixtures/README.md). */
export const FIXTURES_DIR = path.join(PROJECT_ROOT, "fixtures");
/** Raw text output of the reference tool, real input for the importer. */
export const TOOL_OUTPUT_DIR = path.join(FIXTURES_DIR, "kozlovski", "tool-output");
