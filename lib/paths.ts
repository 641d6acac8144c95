import path from "node:path";
import { fileURLToPath } from "node:url";

/** The project's root folder (where package.json lives), independent of the current directory. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
