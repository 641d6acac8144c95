// The checks deploy/deploy.test.ts runs over deploy/ (read by deploy/manifests.ts). Each returns its problems in
// words, naming the file's place and what to do; an empty list means the check holds.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Env, EnvSchema, readEnv } from "../lib/env";
import { PROJECT_ROOT } from "../lib/paths";
import { NODE_FLOOR_MAJOR } from "../platform/node-version";
import { partArg } from "../runner/parts/part-arg";
import { type Container, type Dockerfile, roleOf, type Yaml } from "./manifests";

/** Variables read by the tools the product runs rather than by its own code, each with who reads it. */
export const TOOL_ENV: Record<string, string> = {
  NEXT_TELEMETRY_DISABLED: "Next.js (next build, the web app)",
};

const SOURCE_DIRS = ["lib", "app", "runner", "scripts", "platform", "workloads", "components", "deploy"];
const SOURCE_FILES = ["proxy.ts", "next.config.ts"];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "generated" || e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|tsx|mjs|js)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Every environment variable the product reads: lib/env.ts's schema and each `process.env.X` of its sources. */
export function productEnvNames(): Set<string> {
  const names = new Set(Object.keys(EnvSchema.shape));
  const files = [...SOURCE_DIRS.flatMap((d) => sourceFiles(path.join(PROJECT_ROOT, d))), ...SOURCE_FILES.map((f) => path.join(PROJECT_ROOT, f))];
  for (const f of files) for (const m of readFileSync(f, "utf8").matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1]);
  return names;
}

export const packageScripts = (): Record<string, string> =>
  (JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/** The image's Node major is at or above the product's floor (platform/node-version.ts) and package.json's engines. */
export function nodeFloorProblems(image: Dockerfile, enginesNode: string): string[] {
  const tag = /^node:(\d+)/.exec(image.from);
  if (!tag) return [`Dockerfile: FROM ${image.from || "(none)"} is not an official node image with a major version (node:<major>-…)`];
  const major = Number(tag[1]);
  const engines = Number(/>=\s*(\d+)/.exec(enginesNode)?.[1] ?? Number.NaN);
  const floor = Math.max(NODE_FLOOR_MAJOR, Number.isNaN(engines) ? 0 : engines);
  return major >= floor ? [] : [`Dockerfile: FROM ${image.from} runs Node ${major}, below the product's floor of Node ${floor}; use node:${floor} or newer`];
}

/** What lib/env.ts makes of a container's environment, or null when it refuses it (requiredEnvProblems says why). */
function parsedEnv(c: Container): Env | null {
  try {
    return readEnv(c.env);
  } catch {
    return null;
  }
}

/** Every variable a file sets is one the product (or a tool it runs) reads: a misspelt name is ignored silently. */
export function unknownEnvProblems(containers: Container[], image: Dockerfile, known: Set<string>): string[] {
  const unknown = (name: string) => !known.has(name) && !(name in TOOL_ENV);
  // A variable a container's own arguments expand ($(PART_INDEX)) is read there, by Kubernetes.
  const expanded = (c: Container) => new Set(c.command.flatMap((a) => [...a.matchAll(EXPANSION)].map((m) => m[1])));
  const problems = Object.keys(image.env)
    .filter(unknown)
    .map((n) => `Dockerfile: ENV ${n} is read by nothing in the product (misspelt? see lib/env.ts)`);
  for (const c of containers)
    for (const n of Object.keys(c.setEnv).filter((n) => unknown(n) && !expanded(c).has(n)))
      problems.push(`${c.where}: ${n} is read by nothing in the product (misspelt? see lib/env.ts)`);
  return problems;
}

/**
 * The app and the runners name both databases (left out, `npm start` would start an embedded Postgres in the
 * container and a runner could not run a run without a saved target), and lib/env.ts accepts what they see.
 */
export function requiredEnvProblems(containers: Container[]): string[] {
  const problems: string[] = [];
  for (const c of containers.filter((x) => x.role === "app" || x.role === "runner")) {
    for (const name of ["DATABASE_URL", "TARGET_DATABASE_URL"])
      if (!c.env[name]?.trim()) problems.push(`${c.where}: ${name} is not set; the ${c.role} needs it (docs/deploy.md)`);
    try {
      readEnv(c.env);
    } catch (err) {
      problems.push(`${c.where}: lib/env.ts refuses its environment: ${(err as Error).message}`);
    }
  }
  return problems;
}

/** One command: an npm script that package.json has, or node on a file of the repository. */
function commandProblem(argv: string[], scripts: Record<string, string>): string | null {
  const [prog, verb, name] = argv;
  if (prog === "npm" && (verb === "start" || verb === "test")) return verb in scripts ? null : `npm ${verb}: package.json has no "${verb}" script`;
  if (prog === "npm" && (verb === "run" || verb === "run-script")) return name in scripts ? null : `npm run ${name}: package.json has no "${name}" script`;
  if (prog === "npm" && (verb === "install" || verb === "cache")) return null;
  if (prog === "node" && verb && !verb.startsWith("-"))
    return existsSync(path.join(PROJECT_ROOT, verb)) ? null : `node ${verb}: no such file in the repository`;
  return `"${argv.join(" ")}" is neither an npm script of package.json nor node on a file of the repository`;
}

/** The image's PID 1. */
const INIT = ["/usr/bin/tini", "--"];

/** Every command the image runs (RUN, CMD), every container's command and its probes. */
export function commandProblems(containers: Container[], image: Dockerfile, scripts: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const run of image.runs)
    for (const part of run.split(/&&|\|\||;/).map((p) => p.trim().split(/\s+/)))
      if (part[0] === "npm" || part[0] === "node") {
        const p = commandProblem(part, scripts);
        if (p) problems.push(`Dockerfile: RUN ${p}`);
      }
  if (image.entrypoint?.join(" ") !== INIT.join(" "))
    problems.push(`Dockerfile: ENTRYPOINT must be ${JSON.stringify(INIT)}: tini passes SIGTERM on and reaps orphans as PID 1`);
  if (!image.cmd) problems.push(`Dockerfile: CMD ${image.cmdRaw || "(none)"} must be in exec form (["npm", "start"]) so that SIGTERM reaches npm`);
  else if (roleOf(image.cmd) !== "app") problems.push(`Dockerfile: CMD ${image.cmd.join(" ")} should start the app (npm start)`);
  for (const c of containers) {
    if (c.entrypoint.join(" ") !== INIT.join(" "))
      problems.push(
        `${c.where}: runs "${c.entrypoint.join(" ")}" in place of the image's ENTRYPOINT (tini); give the role as args (Kubernetes) or command (compose)`,
      );
    if (c.role === "unknown")
      problems.push(`${c.where}: command "${c.command.join(" ")}" is none of the image's roles (npm start, npm run runner, npm run bench)`);
    for (const argv of [c.command, ...c.probes]) {
      const p = commandProblem(argv, scripts);
      if (p) problems.push(`${c.where}: ${p}`);
    }
  }
  return problems;
}

/** The port the app listens on agrees everywhere: the image's EXPOSE, compose's ports, containerPort, the Service. */
export function portProblems(containers: Container[], image: Dockerfile, services: { name: string; targetPorts: number[] }[]): string[] {
  const problems: string[] = [];
  for (const c of containers.filter((x) => x.role === "app")) {
    const port = parsedEnv(c)?.PORT;
    if (port === undefined) continue;
    if (!image.expose.includes(port))
      problems.push(`${c.where}: the app listens on ${port} but the Dockerfile EXPOSEs ${image.expose.join(", ") || "nothing"}`);
    if (!c.ports.length) problems.push(`${c.where}: the app declares no port; it listens on ${port}`);
    for (const p of c.ports.filter((x) => x !== port)) problems.push(`${c.where}: port ${p} is declared but the app listens on PORT ${port}`);
    if (!c.published) problems.push(`${c.where}: the app's port is not reachable from outside its container (no published port, no Service)`);
  }
  const appPorts = new Set(containers.filter((x) => x.role === "app").map((c) => parsedEnv(c)?.PORT));
  for (const s of services)
    for (const t of s.targetPorts.filter((x) => !appPorts.has(x)))
      problems.push(
        `Service ${s.name}: targetPort ${Number.isNaN(t) ? "(a name no container port has)" : t} is not the app's port (${[...appPorts].join(", ")})`,
      );
  return problems;
}

/** A runner serves nothing: no published port, no Service in front of it. */
export function runnerPortProblems(containers: Container[]): string[] {
  return containers
    .filter((c) => c.role === "runner" && (c.published || c.ports.length))
    .map((c) => `${c.where}: a runner listens on nothing; remove its ports (and any Service selecting it)`);
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Inside a container the app binds every interface: on 127.0.0.1 nothing outside the container could reach it. */
export function hostProblems(containers: Container[]): string[] {
  return containers
    .filter((c) => c.role === "app" && LOOPBACK.has(parsedEnv(c)?.HOST ?? ""))
    .map((c) => `${c.where}: the app binds ${c.env.HOST ?? "127.0.0.1"} (HOST), unreachable from outside its container; set HOST=0.0.0.0`);
}

/** Nothing of the product runs as root. */
export function rootProblems(containers: Container[], image: Dockerfile): string[] {
  const problems = !image.user || /^(root|0)(:|$)/.test(image.user) ? ["Dockerfile: no USER (or root) before CMD; run as the image's node user"] : [];
  for (const c of containers.filter((x) => !x.nonRoot)) problems.push(`${c.where}: may run as root; set runAsNonRoot (Kubernetes) or a non-root user`);
  return problems;
}

/**
 * Compose: each product service waits for what it needs with a condition (service_healthy only on a service with a
 * health check), and its database URLs name services of the file, the control store and the target apart.
 */
export function composeProblems(compose: Yaml, containers: Container[]): string[] {
  const services = (compose.services ?? {}) as Record<string, Yaml>;
  const problems: string[] = [];
  for (const [name, s] of Object.entries(services)) {
    const deps = s.depends_on ?? {};
    if (Array.isArray(deps) && deps.length) problems.push(`compose service ${name}: depends_on without conditions; give each one (service_healthy)`);
    for (const [dep, d] of Object.entries(Array.isArray(deps) ? {} : (deps as Record<string, Yaml>))) {
      if (!services[dep]) problems.push(`compose service ${name}: depends_on names ${dep}, which is not a service`);
      else if (d?.condition === "service_healthy" && !services[dep].healthcheck)
        problems.push(`compose service ${name}: waits for ${dep} to be healthy, but ${dep} has no healthcheck`);
      else if (!d?.condition) problems.push(`compose service ${name}: depends_on ${dep} has no condition`);
    }
  }
  const hostOf = (url: string) => /@([^:/?]+)/.exec(url)?.[1] ?? "";
  for (const c of containers.filter((x) => x.role === "app" || x.role === "runner")) {
    const [control, target] = [hostOf(c.env.DATABASE_URL ?? ""), hostOf(c.env.TARGET_DATABASE_URL ?? "")];
    for (const [v, h] of [
      ["DATABASE_URL", control],
      ["TARGET_DATABASE_URL", target],
    ])
      if (!services[h]?.healthcheck) problems.push(`${c.where}: ${v} names host "${h}", which is no service of compose.yaml with a healthcheck`);
      else if (!Object.keys(services[c.name]?.depends_on ?? {}).includes(h))
        problems.push(`${c.where}: ${v} names ${h}, but it does not wait for ${h} (depends_on)`);
    if (control && control === target)
      problems.push(`${c.where}: the control store and the target are one server (${control}); the product refuses its control store as a target`);
  }
  return problems;
}

/** Settings the app and its runners must share: the app launches what the runners then run. */
const SHARED = ["DATABASE_URL", "TARGET_DATABASE_URL", "RUNNER_MEMORY_BUDGET_MB"];

/**
 * Within one deployment (compose, or Kubernetes) the app and every runner see the same control store, default
 * target and memory budget: otherwise a run the app accepts is refused by a runner, or runs on another database
 * than the one its page names.
 */
export function agreementProblems(containers: Container[]): string[] {
  const app = containers.find((c) => c.role === "app");
  if (!app) return [];
  return containers
    .filter((c) => c.role === "runner")
    .flatMap((c) =>
      SHARED.filter((n) => (c.env[n] ?? "") !== (app.env[n] ?? "")).map(
        (n) => `${c.where}: ${n} differs from the app's (${app.where}); the app launches what the runners run, so give both the same`,
      ),
    );
}

/**
 * A runner's memory budget (lib/workloads/memory.ts) fits under its container's limit, with room for Node itself:
 * the budget's default reads the machine's memory, not the container's, so a limit without a budget is refused too.
 */
export function memoryProblems(containers: Container[]): string[] {
  const problems: string[] = [];
  for (const c of containers.filter((x) => (x.role === "app" || x.role === "runner") && x.memoryLimitMb !== undefined)) {
    const limit = c.memoryLimitMb!;
    if (Number.isNaN(limit)) problems.push(`${c.where}: its memory limit is not a Kubernetes quantity (e.g. 2Gi)`);
    else if (!c.setEnv.RUNNER_MEMORY_BUDGET_MB)
      problems.push(
        `${c.where}: a memory limit of ${limit} MiB without RUNNER_MEMORY_BUDGET_MB; its default reads the node's memory, so set it below the limit`,
      );
    else if ((parsedEnv(c)?.RUNNER_MEMORY_BUDGET_MB ?? 0) + NODE_HEADROOM_MB > limit)
      problems.push(
        `${c.where}: RUNNER_MEMORY_BUDGET_MB ${c.setEnv.RUNNER_MEMORY_BUDGET_MB} leaves less than ${NODE_HEADROOM_MB} MiB for Node under its ${limit} MiB memory limit`,
      );
  }
  return problems;
}

/** What a runner needs besides a run's message data: Node, the engine, a run's garbage (up to 64 MiB, lib/env.ts). */
const NODE_HEADROOM_MB = 512;

/** Kubernetes' expansion of a container variable in its command or args: $(NAME). */
const EXPANSION = /\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g;

/**
 * A runner's arguments (`npm run runner -- --part K`) are ones the runner accepts: judged by its own parser
 * (runner/parts/part-arg.ts) with each $(NAME) expanded as Kubernetes would, from the container's env (a value from a
 * reference, such as a Job's completion index, read as 0); a $(NAME) the env does not declare stays unexpanded.
 */
export function runnerArgProblems(containers: Container[]): string[] {
  const problems: string[] = [];
  for (const c of containers.filter((x) => x.role === "runner")) {
    const args = c.command.slice(c.command.indexOf("--") + 1 || c.command.length);
    const expanded = args.map((a) =>
      a.replace(EXPANSION, (whole, name: string) => {
        if (!(name in c.setEnv))
          problems.push(`${c.where}: ${whole} is not in the container's env, so Kubernetes passes it as it is; declare ${name} under env`);
        return c.setEnv[name] === "<from a reference>" ? "0" : (c.setEnv[name] ?? whole);
      }),
    );
    const parsed = partArg(expanded);
    if (parsed instanceof Error) problems.push(`${c.where}: the runner refuses its arguments "${args.join(" ")}": ${parsed.message}`);
  }
  return problems;
}

/**
 * A pod that carries one part (`--part`) is an Indexed Job's, its part the pod's completion index, every part at
 * once (a run starts only when all are ready), never retried into another run, and never restarted in place.
 */
export function indexedJobProblems(docs: Yaml[]): string[] {
  const problems: string[] = [];
  for (const d of docs) {
    const spec = d.spec?.template?.spec;
    for (const c of (spec?.containers ?? []) as Yaml[]) {
      const args = ((c.args ?? c.command ?? []) as unknown[]).map(String);
      const at = args.indexOf("--part");
      if (at < 0) continue;
      const where = `kubernetes ${d.kind} ${d.metadata?.name}, container ${c.name}`;
      if (d.kind !== "Job" || d.spec?.completionMode !== "Indexed") {
        problems.push(`${where}: --part needs a Job with completionMode: Indexed (the completion index is the part)`);
        continue;
      }
      const name = /^\$\(([A-Za-z_][A-Za-z0-9_]*)\)$/.exec(args[at + 1] ?? "")?.[1];
      const ref = ((c.env ?? []) as Yaml[]).find((e) => e.name === name)?.valueFrom?.fieldRef?.fieldPath;
      if (name !== "JOB_COMPLETION_INDEX" && ref !== "metadata.annotations['batch.kubernetes.io/job-completion-index']")
        problems.push(
          `${where}: --part ${args[at + 1] ?? ""} is not the pod's completion index: pass $(NAME) of an env var from the batch.kubernetes.io/job-completion-index annotation`,
        );
      if (d.spec.parallelism !== undefined && d.spec.parallelism !== d.spec.completions)
        problems.push(
          `${where}: parallelism ${d.spec.parallelism} with ${d.spec.completions} completions: every part must run at once (the run starts when all are ready)`,
        );
      if (d.spec.backoffLimit !== 0)
        problems.push(`${where}: backoffLimit must be 0: a part that failed failed its run, and a retry would carry a part of the next one`);
      if (spec.restartPolicy !== "Never") problems.push(`${where}: restartPolicy must be Never: a restarted part would not rejoin its run`);
    }
  }
  return problems;
}
