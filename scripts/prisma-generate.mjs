// Runs `prisma generate` after npm install.
// Generating the client needs no database and no schema engine, but the Prisma CLI insists on finding a
// schema-engine binary. Where its download is impossible (offline machines, or npm that blocks install
// scripts), point PRISMA_SCHEMA_ENGINE_BINARY at an existing file so the check passes; where the engine
// was downloaded, leave Prisma alone.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
const enginesDir = path.join(root, "node_modules", "@prisma", "engines");
const haveEngine = existsSync(enginesDir) && readdirSync(enginesDir).some((f) => f.startsWith("schema-engine"));
if (!env.PRISMA_SCHEMA_ENGINE_BINARY && !haveEngine) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;

const bin = path.join(root, "node_modules", "prisma", "build", "index.js");
const r = spawnSync(process.execPath, [bin, "generate"], { cwd: root, env, stdio: "inherit" });
process.exit(r.status ?? 1);
