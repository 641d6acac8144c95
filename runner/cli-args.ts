// Command-line parsing for `npm run bench`. Flag names are the reference tool's (Go's flag package: -name,
// --name, -name=value, --name value), so a reference command line can be pasted as is, plus our own
// (--target, --warmup, --preset, --json, --save). No dependency: the grammar is small and the messages must
// name the exact flag.
import os from "node:os";
import { checkPgUrl } from "../lib/targets/pgurl";
import { MAX_REPLICA_DELAY_MS, MAX_REPLICAS, parseReplicaDelay } from "../lib/targets/replicated-shape";
import { partsProblem } from "../lib/workloads/parts";
import { parseConfig, presetById, PRESETS, workloadDefinition, workloadDefinitions, type WorkloadConfig } from "../lib/workloads/config";
import type { WorkloadDefinition } from "../workloads/types";
import { parseWholeMillis, parseWholeSeconds } from "../lib/duration";
import { flagsStart } from "../lib/imports/command";
import { flagLines, wrap } from "./help-text";
import { DEFAULT_MAX_REGRESSION_PCT, GATE_FAILED_EXIT, type Gate, parseGate, parseMaxRegression } from "../lib/gate/gate";
import { isLatency } from "../lib/gate/metric";
import { type LabelsInput, MAX_NAME, MAX_NOTES, MAX_TAG, MAX_TAGS, parseLabels } from "../lib/runs/labels";

type FlagType = "int" | "duration" | "durationMs" | "bool" | "string";
interface FlagSpec {
  type: FlagType;
  /** Config field it sets, per workload that has the flag (workload flags only). */
  fields?: Map<string, string>;
  /** Its text, per workload that has the flag (workload flags only): each workload's help shows its own. */
  helps?: Map<string, string>;
  help: string;
  /** Our own flag (--name), not the reference tool's (-name): as help and messages spell it. */
  ours?: boolean;
  /** What the value is, in the help (default from the type: N, DURATION, VALUE). */
  arg?: string;
  /** Given once per item (--phase A --phase B): the values are joined by ", ". */
  repeatable?: boolean;
}

/** "pubsub or queue". */
function kindsText(): string {
  const k = workloadDefinitions().map((d) => d.kind);
  return k.length > 1 ? `${k.slice(0, -1).join(", ")} or ${k[k.length - 1]}` : k.join("");
}

/**
 * The workload flags, from every workload's field table: a flag several workloads share is one flag (its help
 * says what it means for each when they differ); a flag only some have names them.
 */
function workloadFlags(defs: readonly WorkloadDefinition[]): Record<string, FlagSpec> {
  const byFlag = new Map<string, { type: FlagType; ours: boolean; repeatable: boolean; uses: { kind: string; field: string; help: string }[] }>();
  for (const d of defs)
    for (const f of d.fields) {
      if (!f.cli) continue;
      const type: FlagType =
        f.control === "bool"
          ? "bool"
          : f.control === "select" || f.control === "text"
            ? "string"
            : f.cli.duration === "ms"
              ? "durationMs"
              : f.cli.duration
                ? "duration"
                : "int";
      const entry = byFlag.get(f.cli.flag) ?? { type, ours: f.cli.ours === true, repeatable: f.cli.repeatable === true, uses: [] };
      entry.uses.push({ kind: d.kind, field: f.name, help: f.cli.help });
      byFlag.set(f.cli.flag, entry);
    }
  const out: Record<string, FlagSpec> = {};
  for (const [flag, { type, ours, repeatable, uses }] of byFlag) {
    const everywhere = uses.length === defs.length && new Set(uses.map((u) => u.help)).size === 1;
    const help = everywhere ? uses[0].help : uses.map((u) => `${u.kind}: ${u.help}`).join("; ");
    out[flag] = {
      ...{ type, ours, help, ...(repeatable ? { repeatable } : {}) },
      ...{ fields: new Map(uses.map((u) => [u.kind, u.field])), helps: new Map(uses.map((u) => [u.kind, u.help])) },
    };
  }
  return out;
}

/** The flags that are not a workload's field. */
function ownFlags(): Record<string, FlagSpec> {
  return {
    mode: { type: "string", arg: "WORKLOAD", help: `${kindsText()} (as the reference's -mode; or give it as the first word)` },
    target: {
      type: "string",
      ours: true,
      arg: "URL",
      help: "the database to run against, as postgresql://user@host:5432/db (default: TARGET_DATABASE_URL, else the embedded Postgres)",
    },
    host: { type: "string", arg: "HOST", help: "reference-style connection: host (with -port -db -user -password)" },
    port: { type: "int", help: "reference-style connection: port (default 5432)" },
    db: { type: "string", arg: "NAME", help: "reference-style connection: database (default benchmark)" },
    user: { type: "string", arg: "NAME", help: "reference-style connection: user (default postgres)" },
    password: { type: "string", help: "reference-style connection: password" },
    replicas: {
      type: "string",
      ours: true,
      arg: "N",
      help: `with no --target: run against the embedded replicated target (DATA_DIR/replicated), a primary and N standbys (1 to ${MAX_REPLICAS}), synchronous_standby_names 'FIRST 1 (pg2, …)'`,
    },
    "replica-delay": {
      type: "string",
      ours: true,
      arg: "DELAY",
      help: "with --replicas: delay each standby's traffic with the primary this much each way (0.5ms, 500us), through a relay; the delay achieved is measured",
    },
    preset: { type: "string", ours: true, arg: "NAME", help: "start from a preset (flags override its fields)" },
    json: { type: "string", ours: true, arg: "FILE", help: "write the run's summary (lib/measurement/summary.ts RunSummary) to this file" },
    html: { type: "string", ours: true, arg: "FILE", help: "write the run's report: one HTML file (charts, tables, verdict) that opens offline" },
    save: { type: "bool", ours: true, help: "store the run in the control store so the app shows it (live)" },
    name: {
      type: "string",
      ours: true,
      arg: "TEXT",
      help: `the run's name (up to ${MAX_NAME} characters): in the summary, the --json file, and with --save the app's lists and comparisons`,
    },
    tag: {
      type: "string",
      ours: true,
      arg: "TAG",
      repeatable: true,
      help: `a tag of letters, digits and - _ . : (up to ${MAX_TAG} characters), kept like --name; repeat it for several (up to ${MAX_TAGS})`,
    },
    notes: { type: "string", ours: true, arg: "TEXT", help: `notes kept with the run like --name (up to ${MAX_NOTES.toLocaleString("en")} characters)` },
    gate: {
      type: "string",
      ours: true,
      arg: "METRIC<GOAL",
      repeatable: true,
      help: `fail (exit status ${GATE_FAILED_EXIT}) unless the run's figure meets the goal, checked on the whole window's merged histogram: e2e.p99<50ms, e2e.fromSchedule.p99.9<200ms, write.perSecond>4000, read.errors<=0; repeat it for several`,
    },
    baseline: {
      type: "string",
      ours: true,
      arg: "RUN|FILE",
      help: "compare with a stored run (r_…, from the control store) or a --json summary file, and fail on a regression beyond --max-regression",
    },
    "max-regression": {
      type: "string",
      ours: true,
      arg: "PCT",
      help: "with --baseline: how far a figure may move the wrong way, as 10% (default 10%); the gates' metrics, else each operation's rate and p50, p99",
    },
    histograms: {
      type: "string",
      ours: true,
      arg: "DIR",
      help: "write each latency's merged histogram of the window to DIR in HdrHistogram's formats: <operation>.<kind>.hlog (interval log, µs) and .hgrm (percentiles, ms)",
    },
    "gate-json": { type: "string", ours: true, arg: "FILE", help: "with --gate or --baseline: write every gate's and figure's outcome as JSON" },
    "gate-md": { type: "string", ours: true, arg: "FILE", help: "with --gate or --baseline: write the outcome as Markdown, for a pull-request comment" },
    help: { type: "bool", ours: true, help: "this text; after a workload (pubsub --help), that workload's flags" },
  };
}

let cached: { defs: readonly WorkloadDefinition[]; flags: Record<string, FlagSpec>; aliases: Record<string, string> } | null = null;
/** Every flag, and the spellings accepted for one: "-" and "_" swapped ("-throttle-writes"), and "-h". */
function flagTable(): { flags: Record<string, FlagSpec>; aliases: Record<string, string> } {
  const defs = workloadDefinitions();
  if (cached?.defs !== defs) {
    const flags = { ...workloadFlags(defs), ...ownFlags() };
    const aliases: Record<string, string> = { h: "help" };
    for (const name of Object.keys(flags)) {
      const swapped = name.includes("-") ? name.replaceAll("-", "_") : name.replaceAll("_", "-");
      if (swapped !== name && !flags[swapped]) aliases[swapped] = name;
    }
    cached = { defs, flags, aliases };
  }
  return cached;
}

export interface CliOptions {
  config: WorkloadConfig;
  /** Explicit target URL (from --target or the reference-style flags); undefined = default target. */
  target?: string;
  json?: string;
  html?: string; // --html: the run's report as one HTML file (./cli-html.ts)
  /** --histograms DIR: each latency's histogram written there as .hlog and .hgrm (lib/measurement/hdr-export.ts). */
  histograms?: string;
  save: boolean;
  presetId?: string;
  /** --replicas: standbys of the embedded replicated target (platform/replicated.ts), run against instead of the default target. */
  replicas?: number;
  /** --replica-delay, in ms each way. */
  replicaDelayMs?: number;
  /** --gate, --baseline, --max-regression, --gate-json, --gate-md (lib/gate/). */
  gating?: Gating;
  /** --name, --tag, --notes (lib/runs/labels.ts); absent when none was given. */
  labels?: LabelsInput;
}

/** What a command line asks to check once its run ends (lib/gate/gate.ts): gates, a baseline, where to write. */
export interface Gating {
  gates: Gate[];
  baseline?: string;
  maxRegressionPct: number;
  json?: string;
  markdown?: string;
}

export type ParsedArgs = { kind: "help"; workload?: string } | { kind: "run"; options: CliOptions } | { kind: "error"; message: string };

/**
 * -processes: a whole number (the schema checks its range and names it), or `auto`, this machine's cores
 * (os.availableParallelism), resolved here so the stored config holds the number the run used; null otherwise.
 */
export function processesOf(raw: string): number | null {
  const v = raw.trim().toLowerCase();
  if (v === "auto") return os.availableParallelism();
  return /^\d+$/.test(v) ? Number(v) : null;
}

/** "30s", "2m", "1m30s", "1h", or plain seconds ("45") → whole seconds; null if not a duration. */
export const parseDuration = parseWholeSeconds;

function closest(name: string): string | undefined {
  const { flags: FLAGS, aliases: ALIASES } = flagTable();
  const names = [...Object.keys(FLAGS), ...Object.keys(ALIASES)];
  const dist = (a: string, b: string) => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
    for (let j = 1; j <= b.length; j++) d[0][j] = j;
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    return d[a.length][b.length];
  };
  const best = names.map((n) => [n, dist(name, n)] as const).sort((a, b) => a[1] - b[1])[0];
  return best && best[1] <= 2 ? (ALIASES[best[0]] ?? best[0]) : undefined;
}

/**
 * A pasted reference command line's words without its program: `./pg_msg_bench` (any path, or none) or
 * `go run <package>` as the first words, as the importer reads them (lib/imports/command.ts).
 */
function withoutProgram(argv: string[]): string[] {
  const start = flagsStart(argv);
  return start === 1 || (start > 1 && argv[0] === "go") ? argv.slice(start) : argv;
}

/** A flag given no value, as `--host=$HOST` or `-host "$HOST"` with the shell variable unset leaves it. */
function emptyValue(typed: string, name: string): string {
  const without = name === "password" ? "; to connect without a password, leave -password out" : "";
  return `${typed} is empty: typed as ${typed}=$VAR with the shell variable unset? Set the variable or give the value${without}`;
}

export function parseArgs(words: string[]): ParsedArgs {
  const err = (message: string): ParsedArgs => ({ kind: "error", message });
  const { flags: FLAGS, aliases: ALIASES } = flagTable();
  const argv = withoutProgram(words);
  const values = new Map<string, string | boolean>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i];
    if (!tok.startsWith("-") || tok === "-" || /^-\d/.test(tok)) {
      positional.push(tok);
      continue;
    }
    const body = tok.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const rawName = eq >= 0 ? body.slice(0, eq) : body;
    const name = ALIASES[rawName] ?? rawName;
    const spec = FLAGS[name];
    if (!spec) {
      const hint = closest(rawName);
      return err(`unknown flag ${tok.split("=")[0]}${hint ? ` (did you mean -${hint}?)` : ""}. Run \`npm run bench -- --help\` for the list`);
    }
    if (values.has(name) && !spec.repeatable) return err(`-${name} is given twice`);
    if (spec.type === "bool") {
      if (eq >= 0) {
        const v = body.slice(eq + 1).toLowerCase();
        if (!["true", "false", "1", "0"].includes(v)) return err(`-${name} is a switch: use -${name} or -${name}=true|false, not "${body.slice(eq + 1)}"`);
        values.set(name, v === "true" || v === "1");
      } else values.set(name, true);
      continue;
    }
    const typed = tok.split("=")[0];
    let v: string;
    if (eq >= 0) v = body.slice(eq + 1);
    else {
      if (i + 1 >= argv.length) return err(`-${name} needs a value (${spec.help})`);
      v = argv[++i];
      // Unquoted, an unset variable leaves no word: the next flag would be taken as the value.
      const next = /^--?([\w-]+)(=|$)/.exec(v)?.[1];
      if (next && (FLAGS[next] || ALIASES[next]))
        return err(`${typed} has no value (the next word is ${v.split("=")[0]}): typed as ${typed} $VAR with the shell variable unset?`);
    }
    if (v.trim() === "") return err(emptyValue(typed, name));
    values.set(name, values.has(name) ? `${values.get(name)}, ${v}` : v);
  }
  if (values.get("help")) return { kind: "help", workload: helpAsked(argv)?.workload };

  // Workload kind: first word, -mode, or the preset's.
  if (positional.length > 1) return err(`unexpected argument "${positional[1]}": give one workload (${kindsText()}) and flags`);
  const kindWord = positional[0] ?? (values.get("mode") as string | undefined);
  if (positional[0] && values.has("mode") && values.get("mode") !== positional[0])
    return err(`the workload is given twice: "${positional[0]}" and -mode ${values.get("mode")}`);
  if (kindWord !== undefined && !workloadDefinition(kindWord)) return err(`unknown workload "${kindWord}": use ${kindsText()}`);
  const presetId = values.get("preset") as string | undefined;
  const preset = presetId ? presetById(presetId) : undefined;
  if (presetId && !preset) return err(`unknown preset "${presetId}". Presets: ${PRESETS.map((p) => p.id).join(", ")}`);
  if (preset && kindWord && preset.config.kind !== kindWord)
    return err(`preset ${preset.id} is a ${preset.config.kind} workload, but "${kindWord}" was asked for`);
  const kind = kindWord ?? preset?.config.kind;
  if (!kind) {
    const first = workloadDefinitions()[0].kind;
    return err(`which workload? Start with ${kindsText()}, e.g. \`npm run bench -- ${first} -duration 30s\` (or --preset NAME)`);
  }
  const def = workloadDefinition(kind)!;

  const input: Record<string, unknown> = { ...(preset?.config ?? {}), kind };
  for (const [name, raw] of values) {
    const spec = FLAGS[name];
    if (!spec.fields) continue;
    const field = spec.fields.get(kind);
    if (!field) return err(`-${name} applies to the ${[...spec.fields.keys()].join(" and ")} workload${spec.fields.size > 1 ? "s" : ""} only, not ${kind}`);
    if (spec.type === "bool") input[field] = raw;
    else if (name === "processes") {
      const n = processesOf(String(raw));
      if (n === null)
        return err(`-processes expects a whole number of runner processes (1 to 64) or auto (this machine's ${os.availableParallelism()} cores), got "${raw}"`);
      input[field] = n;
    } else if (spec.type === "int") {
      // Anything but a whole number goes to the schema as the text, so its message is the form's words.
      input[field] = /^-?\d+$/.test(String(raw)) ? Number(raw) : raw;
    } else if (spec.type === "duration") {
      const secs = parseDuration(String(raw));
      if (secs === null) return err(`-${name} expects a duration in whole seconds such as 30s, 2m, 1m30s or 45, got "${raw}"`);
      input[field] = secs;
    } else if (spec.type === "durationMs") {
      const ms = parseWholeMillis(String(raw));
      if (ms === null) return err(`-${name} expects a duration in whole milliseconds such as 100ms, 1s, 0 or 250, got "${raw}"`);
      input[field] = ms;
    } else input[field] = raw; // strings (a select field's value): the schema names the allowed values
  }
  // A flag that implies another field's value (--drain N: drain mode) sets it unless that field's flag was given too.
  for (const f of def.fields) {
    const implies = f.cli?.implies;
    const other = implies && def.fields.find((x) => x.name === implies.field)?.cli?.flag;
    if (!implies || !other || !values.has(f.cli!.flag)) continue;
    if (!values.has(other)) input[implies.field] = implies.value;
    else if (values.get(other) !== implies.value)
      return err(`--${f.cli!.flag} applies with --${other} ${implies.value} only: leave it out, or give --${other} ${implies.value}`);
  }
  // A preset's derived field (pub/sub readers) follows its source; if only the source is overridden, let it follow again.
  for (const f of def.fields)
    if (f.derivedFrom && f.cli && preset) {
      const source = def.fields.find((x) => x.name === f.derivedFrom)?.cli?.flag;
      if (source && values.has(source) && !values.has(f.cli.flag)) delete input[f.name];
    }

  const parsed = parseConfig(input);
  if (!parsed.ok) {
    const byField = Object.fromEntries(def.fields.flatMap((f) => (f.cli ? [[f.name, f.cli.flag]] : [])));
    const msgs = Object.entries(parsed.errors).map(([field, msg]) => (byField[field] ? `-${byField[field]}: ${msg}` : msg));
    return err(`invalid ${kind} settings: ${msgs.join("; ")}`);
  }
  const split = partsProblem(parsed.config);
  if (split) return err(`-processes: ${split}`);

  const target = targetOf(values);
  if (typeof target === "object") return err(target.error);
  const json = values.get("json") as string | undefined;
  if (json !== undefined && json.trim() === "") return err("--json needs a file name");
  const replicated = replicatedOf(values, target !== undefined);
  if ("error" in replicated) return err(replicated.error);
  const gating = gatingOf(values, def);
  if (typeof gating === "string") return err(gating);
  const labels = labelsOf(values);
  if (typeof labels === "string") return err(labels);
  const histograms = values.get("histograms") as string | undefined;
  return {
    kind: "run",
    options: {
      ...{ config: parsed.config, target, json, save: values.get("save") === true, presetId, ...replicated },
      ...(gating ? { gating } : {}),
      ...(histograms ? { histograms } : {}),
      ...(values.get("html") ? { html: values.get("html") as string } : {}), // empty: refused by the parser, naming it
      ...(labels ? { labels } : {}),
    },
  };
}

/** The target: --target, or the reference's -host/-port/-db/-user/-password as a URL, or undefined for the default. */
function targetOf(values: Map<string, string | boolean>): string | undefined | { error: string } {
  const error = (message: string) => ({ error: message });
  let target = values.get("target") as string | undefined;
  const refConn = ["host", "port", "db", "user", "password"].filter((n) => values.has(n));
  if (target && refConn.length) return error(`give either --target or -${refConn.join("/-")}, not both`);
  if (refConn.length) {
    if (!values.has("host")) return error(`-${refConn.join("/-")} given without -host`);
    // URL's setters ignore what they cannot take: a host or port they left unset would quietly reach another server.
    const u = new URL("postgresql://unset.invalid");
    const host = String(values.get("host"));
    u.hostname = host;
    if (u.hostname === "unset.invalid") return error(`-host ${JSON.stringify(host)} is not a host name or address`);
    const port = String(values.get("port") ?? 5432);
    if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) return error(`-port must be a port number from 1 to 65535, not "${port}"`);
    u.port = port;
    u.username = String(values.get("user") ?? "postgres");
    if (values.has("password")) u.password = String(values.get("password"));
    u.pathname = `/${values.get("db") ?? "benchmark"}`;
    target = u.toString();
  }
  if (target !== undefined) {
    const problem = checkPgUrl(target);
    if (problem) return error(`${refConn.length ? `-${refConn.join("/-")}` : "--target"} ${problem}`);
  }
  return target;
}

/** --name, --tag (each given once per tag) and --notes, checked by the app's schema; the message names the flag. */
function labelsOf(values: Map<string, string | boolean>): LabelsInput | undefined | string {
  if (!values.has("name") && !values.has("tag") && !values.has("notes")) return undefined;
  const parsed = parseLabels({
    name: values.get("name"),
    notes: values.get("notes"),
    // Repeated values are joined by ", " (parseArgs); each is parted by commas or spaces like the form's Tags field.
    tags: values.has("tag") ? String(values.get("tag")) : undefined,
  });
  if (parsed.ok) return parsed.labels;
  const flag: Record<string, string> = { name: "--name", notes: "--notes", tags: "--tag" };
  return Object.entries(parsed.fields)
    .map(([field, msg]) => `${flag[field] ?? field}: ${msg}`)
    .join("; ");
}

/** The gates and the baseline asked, checked: each gate parsed, a bound only beside a baseline, files only beside them. */
function gatingOf(values: Map<string, string | boolean>, def: WorkloadDefinition): Gating | undefined | string {
  const written = values.has("gate") ? String(values.get("gate")).split(", ") : [];
  const gates: Gate[] = [];
  for (const w of written) {
    const g = parseGate(w);
    if (typeof g === "string") return `--gate: ${g}`;
    const problem = gateOperationProblem(g, def);
    if (problem) return `--gate ${g.text}: ${problem}`;
    gates.push(g);
  }
  const baseline = values.get("baseline") as string | undefined;
  const bound = values.get("max-regression") as string | undefined;
  if (bound !== undefined && baseline === undefined) return "--max-regression applies with --baseline RUN|FILE: add the run or summary file to compare with";
  const maxRegressionPct = bound === undefined ? DEFAULT_MAX_REGRESSION_PCT : parseMaxRegression(bound);
  if (typeof maxRegressionPct === "string") return maxRegressionPct;
  const json = values.get("gate-json") as string | undefined;
  const markdown = values.get("gate-md") as string | undefined;
  if (!gates.length && baseline === undefined) {
    const file = json !== undefined ? "--gate-json" : markdown !== undefined ? "--gate-md" : null;
    return file ? `${file} writes the outcome of --gate or --baseline: add one` : undefined;
  }
  return { gates, baseline, maxRegressionPct, json, markdown };
}

/** Why a gate names what the workload does not measure (an operation it lacks, a latency of one without any), or null. */
function gateOperationProblem(g: Gate, def: WorkloadDefinition): string | null {
  // The delivery (end to end: e2e) is timed as an operation of its own, with a latency and no rate of its own.
  const delivery = def.metrics.delivery;
  const ops = [...def.metrics.operations, ...(delivery ? [{ name: delivery.name, latency: true }] : [])];
  const op = ops.find((o) => o.name === g.metric.operation);
  if (!op) return `${def.kind} has no operation "${g.metric.operation}": its operations are ${ops.map((o) => o.name).join(", ")}`;
  if (isLatency(g.metric.stat) && !op.latency)
    return `${def.kind}'s ${op.name} has no latency; its operations with one are ${ops
      .filter((o) => o.latency)
      .map((o) => o.name)
      .join(", ")}`;
  return null;
}

/** --replicas and --replica-delay, checked: a number of standbys, a delay with its unit, and no --target beside them. */
function replicatedOf(values: Map<string, string | boolean>, hasTarget: boolean): { replicas?: number; replicaDelayMs?: number } | { error: string } {
  const raw = values.get("replicas") as string | undefined;
  const delayRaw = values.get("replica-delay") as string | undefined;
  if (raw === undefined)
    return delayRaw === undefined ? {} : { error: "--replica-delay applies to the embedded replicated target: add --replicas N (e.g. --replicas 2)" };
  if (hasTarget)
    return { error: "--replicas runs against the embedded replicated target (DATA_DIR/replicated), not a --target of your own: give one or the other" };
  const replicas = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(replicas >= 1 && replicas <= MAX_REPLICAS)) return { error: `--replicas expects a number of standbys from 1 to ${MAX_REPLICAS}, got "${raw}"` };
  if (delayRaw === undefined) return { replicas };
  const replicaDelayMs = parseReplicaDelay(delayRaw);
  if (replicaDelayMs === null)
    return {
      error: `--replica-delay expects a delay each way with its unit, such as 0.5ms, 500us or 2ms (at most ${MAX_REPLICA_DELAY_MS} ms), got "${delayRaw}"`,
    };
  return { replicas, ...(replicaDelayMs > 0 ? { replicaDelayMs } : {}) };
}

/** The flags every workload has with one text (-duration, --warmup, -report, --processes). */
function commonFlags(): string[] {
  const { flags } = flagTable();
  const n = workloadDefinitions().length;
  return Object.keys(flags).filter((f) => flags[f].fields?.size === n && new Set(flags[f].helps?.values()).size === 1);
}

/** The help's lines for `flags`, with `kind`'s own text for a workload flag. */
function flagHelp(names: readonly string[], kind?: string): string[] {
  const { flags } = flagTable();
  return names.flatMap((name) => {
    const spec = flags[name];
    const arg =
      spec.arg ?? (spec.type === "bool" ? "" : spec.type === "duration" || spec.type === "durationMs" ? "DURATION" : spec.type === "int" ? "N" : "VALUE");
    const spelled = `${spec.ours ? "--" : "-"}${name}${name === "help" ? ", -h" : ""}${arg ? ` ${arg}` : ""}`;
    return flagLines(spelled, (kind && spec.helps?.get(kind)) || spec.help);
  });
}

/** The flags that are not a workload's: the target, presets and output. */
const RUN_FLAGS = [
  ...["mode", "target", "host", "port", "db", "user", "password", "replicas", "replica-delay", "preset", "json", "html", "histograms", "save"],
  ...["name", "tag", "notes"],
  ...["gate", "baseline", "max-regression", "gate-json", "gate-md", "help"],
];

const HOW_FLAGS = [
  "Flags take -name value, -name=value, --name value or --name=value. Durations: 30s, 2m, 1m30s, 45.",
  "A reference command line (./pg_msg_bench -mode queue …) can be pasted as is.",
];
const EXIT_STATUS = wrap(
  `Exit status: 0 completed and verified; 1 the run failed (target error, verification FAILED, cancelled); 2 bad flags; ${GATE_FAILED_EXIT} a --gate or --baseline failed (one line each says which).`,
  "  ",
);

/** `npm run bench -- --help`: the commands, the workloads, the flags every workload has and the run's own. */
export function usage(): string {
  const defs = workloadDefinitions();
  const width = Math.max(...defs.map((d) => d.kind.length)) + 4;
  return [
    "Usage: npm run bench -- <workload> [flags]      run a workload; <workload> --help lists its flags",
    "       npm run bench -- --preset NAME [flags]   start from a preset (listed by a workload's --help)",
    "       npm run bench -- compare <id>...         compare stored runs, imports and references",
    "       npm run bench -- ceiling <workload> [flags] --slo 'p99<50ms'   the highest sustained rate",
    "       npm run bench -- export-bundle|import-bundle …   carry runs to another instance (--help)",
    "",
    "Runs a workload against a Postgres target, prints a live line every report interval and a summary.",
    ...HOW_FLAGS,
    "",
    "Workloads:",
    ...defs.flatMap((d) => wrap(`${d.title}: ${d.description}`, " ".repeat(width), `  ${d.kind.padEnd(width - 2)}`)),
    "",
    "Flags of every workload:",
    ...flagHelp(commonFlags()),
    "",
    "Target, preset and output:",
    ...flagHelp(RUN_FLAGS),
    "",
    "Examples:",
    "  npm run bench -- pubsub -writers 10 -partitions 4 -consumer-groups 5 -throttle_writes 5000",
    "  npm run bench -- --preset queue-4vcpu-single-node -duration 60s --json queue.json --save",
    "  npm run bench -- pubsub -duration 30s --replicas 2 --replica-delay 0.5ms",
    "  npm run bench -- queue -duration 20s --replicas 2 --sync-commit off,on,remote_apply --repeats 3",
    "  npm run bench -- cache --help",
    "",
    ...EXIT_STATUS,
  ].join("\n");
}

/** `npm run bench -- <workload> --help`: that workload, its flags with its own text, its presets. */
export function workloadUsage(kind: string): string {
  const def = workloadDefinition(kind);
  if (!def) return usage();
  const common = new Set(commonFlags());
  const own = [...new Set(def.fields.flatMap((f) => (f.cli && !common.has(f.cli.flag) ? [f.cli.flag] : [])))];
  return [
    `Usage: npm run bench -- ${kind} [flags]`,
    "",
    ...wrap(`${def.title}: ${def.description}`),
    "",
    ...HOW_FLAGS,
    "",
    `${kind} flags:`,
    ...flagHelp(own, kind),
    "",
    "Flags of every workload:",
    ...flagHelp([...common], kind),
    "",
    "Target, preset and output:",
    ...flagHelp(RUN_FLAGS, kind),
    "",
    "Presets:",
    ...def.presets.flatMap((p) => flagLines(p.id, p.label)),
    "",
    ...EXIT_STATUS,
  ].join("\n");
}

/**
 * `--help` (or -h) anywhere on the command line: the help asked for, of the workload named first (or by -mode) if
 * any; null when none is asked. Read before anything else is checked, so a help never waits on a bad flag.
 */
export function helpAsked(words: string[]): { workload?: string } | null {
  const argv = withoutProgram(words);
  if (!argv.some((t) => /^--?(h|help)(=(true|1))?$/.test(t))) return null;
  const { flags, aliases } = flagTable();
  /** The value a flag was given (-name value or -name=value), by name. */
  const given = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^--?([\w-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) positional.push(argv[i]);
    else {
      const name = aliases[m[1]] ?? m[1];
      const takesValue = m[2] === undefined && flags[name] && flags[name].type !== "bool";
      given.set(name, m[2] ?? (takesValue ? argv[++i] : ""));
    }
  }
  const preset = presetById(given.get("preset") ?? "")?.config.kind;
  return { workload: [positional[0], given.get("mode"), preset].find((w) => w && workloadDefinition(w)) };
}
