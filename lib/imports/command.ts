// The command line of pg_msg_bench, pasted with its output or found in it: its flags (from the field tables of the
// workloads the tool has), the tool's defaults for the flags left out, and the password masked before anything
// is stored or repeated in an error.
import type { FieldDef } from "../../workloads/types";
import { parseGoDuration } from "../duration";
import { maskCommandLine } from "../targets/pgurl";
import { workloadDefinitions } from "../workloads/config";
import { type ImportConfigField, ImportError, type ImportedSummary } from "./summary";

/**
 * Masks a password given on a pasted command line (a -password / --password flag's value, or a connection string
 * in any libpq form: lib/targets/pgurl.ts maskCommandLine), so it is never stored nor repeated in an error.
 */
export const maskSecrets = maskCommandLine;

/** pg_msg_bench's defaults for the flags a command line leaves out. */
export const TOOL_DEFAULTS = {
  writers: 4,
  readers: 4,
  partitions: 10,
  consumerGroups: 1,
  writeBatch: 100,
  readBatch: 100,
  payloadBytes: 1024,
  durationSeconds: 30,
  reportIntervalSeconds: 5,
  throttleWritesPerSec: 0,
  tuneTableVacuum: false,
} as const;

/** pg_msg_bench's workload flags, from the field tables of the workloads it has (importFlag), and its -mode values. */
function referenceFlags(): { fields: Map<string, FieldDef>; modes: string[] } {
  const fields = new Map<string, FieldDef>();
  const modes: string[] = [];
  for (const d of workloadDefinitions()) {
    if (!d.referenceMode) continue;
    modes.push(d.referenceMode);
    for (const f of d.fields) if (f.importFlag && !fields.has(f.importFlag)) fields.set(f.importFlag, f);
  }
  return { fields, modes };
}
const IGNORED_FLAGS = new Set(["host", "port", "db", "user", "password"]);

/**
 * Where the tool's flags start among a command line's words: after its program's name (`pg_msg_bench`, with or
 * without a path such as ./ or /usr/local/bin/) or after `go run <package>`; 0 when neither is there.
 */
export function flagsStart(words: readonly string[]): number {
  const at = words.findIndex((t) => /pg_msg_bench$|^go$/.test(t));
  return at < 0 ? 0 : words[at] === "go" ? at + 3 : at + 1;
}

/** Parses a `pg_msg_bench` command line (Go flag syntax: -f=v, --f=v, -f v; bare boolean flags). */
export function parseCommand(
  cmd: string,
  lineNo?: number,
): { mode?: ImportedSummary["workload"]; config: Partial<Record<ImportConfigField, number | boolean>> } {
  const flags = referenceFlags();
  const tokens = cmd
    .replace(/\\\s*\n/g, " ")
    .trim()
    .split(/\s+/);
  const args = tokens.slice(flagsStart(tokens));
  const config: Partial<Record<ImportConfigField, number | boolean>> = {};
  let mode: ImportedSummary["workload"] | undefined;
  for (let i = 0; i < args.length; i++) {
    const m = /^--?([\w-]+)(?:=(.*))?$/.exec(args[i]);
    if (!m) throw new ImportError(`could not read the command line at '${args[i]}': expected flags such as --writers=10`, lineNo);
    const name = m[1];
    const f = flags.fields.get(name);
    if (!f && name !== "mode") {
      if (IGNORED_FLAGS.has(name)) {
        if (m[2] === undefined) i++;
        continue;
      }
      throw new ImportError(
        `unknown flag '--${name}' on the command line (pg_msg_bench has ${[...flags.fields.keys(), "mode"].map((n) => `-${n}`).join(", ")})`,
        lineNo,
      );
    }
    const field = f?.name as ImportConfigField;
    if (f?.control === "bool") {
      config[field] = m[2] === undefined ? true : m[2] === "true";
      continue;
    }
    const v = m[2] ?? args[++i];
    if (v === undefined) throw new ImportError(`flag '--${name}' has no value`, lineNo);
    if (!f) {
      if (!flags.modes.includes(v)) throw new ImportError(`--mode must be ${flags.modes.join(" or ")}, found '${v}'`, lineNo);
      mode = workloadDefinitions().find((d) => d.referenceMode === v)!.kind as ImportedSummary["workload"];
    } else if (f.cli?.duration) {
      const ms = parseGoDuration(v);
      if (ms === null || ms <= 0) throw new ImportError(`--${name} must be a Go duration such as 30s, found '${v}'`, lineNo);
      config[field] = ms / 1000;
    } else {
      if (!/^\d+$/.test(v)) throw new ImportError(`--${name} must be a whole number, found '${v}'`, lineNo);
      config[field] = Number(v);
    }
  }
  return { mode, config };
}

export type ParsedCommand = ReturnType<typeof parseCommand>;
