// Reads deploy/'s Dockerfile, compose.yaml and Kubernetes manifests into one shape: the containers that run the
// product's image, each with its role, command, environment and ports. deploy/checks.ts judges them against what
// the product reads (deploy/deploy.test.ts). These machines cannot run Docker or Kubernetes, so the files are
// parsed, never executed.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { PROJECT_ROOT } from "../lib/paths";

export const DEPLOY_DIR = path.join(PROJECT_ROOT, "deploy");

export interface Dockerfile {
  /** The base image of the final stage, e.g. "node:24-bookworm-slim". */
  from: string;
  /** ENV of the final stage, in order (later wins). */
  env: Record<string, string>;
  /** Each RUN's shell command. */
  runs: string[];
  /** ENTRYPOINT in exec form ([] when none; null when in shell form). */
  entrypoint: string[] | null;
  /** CMD in exec form, or null (with the raw text in cmdRaw) when it is missing or in shell form. */
  cmd: string[] | null;
  cmdRaw: string;
  /** The user the CMD runs as ("" when no USER). */
  user: string;
  expose: number[];
}

/** One container that runs the product's image. */
export interface Container {
  /** Where it is declared, for messages: "compose service runner", "kubernetes Deployment x, container y". */
  where: string;
  /** The compose service's name, or the Kubernetes workload's. */
  name: string;
  role: "app" | "runner" | "cli" | "unknown";
  /** What runs PID 1 (the image's ENTRYPOINT unless the file replaces it). */
  entrypoint: string[];
  /** The role's command (CMD, compose `command`, Kubernetes `args`). */
  command: string[];
  /** The variables the file sets (not the image's). */
  setEnv: Record<string, string>;
  /** What the process sees: the image's ENV, then the file's. */
  env: Record<string, string>;
  /** Ports the container declares (compose: the container side of `ports`; Kubernetes: containerPort). */
  ports: number[];
  /** Whether a port of it is reachable from outside the container (compose `ports`, a Service selecting it). */
  published: boolean;
  /** Other commands run inside it: health checks and probes. */
  probes: string[][];
  nonRoot: boolean;
  /** The container's memory limit in MiB (Kubernetes resources.limits.memory), when it has one. */
  memoryLimitMb?: number;
}

/** A parsed YAML mapping: any shape, so every read is optional-chained and converted (String, Number). */
// biome-ignore lint/suspicious/noExplicitAny: parsed YAML has any shape; reads are guarded where they are made
export type Yaml = Record<string, any>;

/** Dockerfile instructions: continuation lines joined, comments dropped; only the final stage is kept. */
export function parseDockerfile(text: string): Dockerfile {
  const joined: string[] = [];
  let pending = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("#") || (!line && !pending)) continue;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    joined.push(pending + line);
    pending = "";
  }
  if (pending) joined.push(pending);
  const d: Dockerfile = { from: "", env: {}, runs: [], entrypoint: [], cmd: null, cmdRaw: "", user: "", expose: [] };
  for (const line of joined) {
    const m = /^(\w+)\s+([\s\S]*)$/.exec(line);
    if (!m) continue;
    const [instr, args] = [m[1].toUpperCase(), m[2].trim()];
    if (instr === "FROM") Object.assign(d, { from: args.split(/\s+/)[0], env: {}, runs: [], entrypoint: [], cmd: null, cmdRaw: "", user: "", expose: [] });
    else if (instr === "ENV") Object.assign(d.env, parseEnvArgs(args));
    else if (instr === "RUN") d.runs.push(args);
    else if (instr === "USER") d.user = args;
    else if (instr === "EXPOSE") d.expose.push(...args.split(/\s+/).map((p) => Number(p.split("/")[0])));
    else if (instr === "ENTRYPOINT") d.entrypoint = args.startsWith("[") ? (JSON.parse(args) as string[]) : null;
    else if (instr === "CMD") {
      d.cmdRaw = args;
      d.cmd = args.startsWith("[") ? (JSON.parse(args) as string[]) : null;
    }
  }
  return d;
}

/** `ENV A=1 B="two words"` or the old `ENV A value`. */
function parseEnvArgs(args: string): Record<string, string> {
  const out: Record<string, string> = {};
  const first = /^([A-Za-z_][A-Za-z0-9_]*)\s+(.*)$/.exec(args);
  if (first && !args.split(/\s+/)[0].includes("=")) {
    out[first[1]] = first[2];
    return out;
  }
  for (const m of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|'([^']*)'|(\S*))/g)) out[m[1]] = m[3] ?? m[4] ?? m[5] ?? "";
  return out;
}

export const readDeployFile = (name: string): string => readFileSync(path.join(DEPLOY_DIR, name), "utf8");

/** The role a command gives the image (see the Dockerfile's head). */
export function roleOf(command: string[]): Container["role"] {
  const c = command.join(" ");
  if (c === "npm start") return "app";
  if (c === "npm run runner" || c.startsWith("npm run runner -- ")) return "runner";
  if (/^npm run bench( |$)/.test(c)) return "cli";
  return "unknown";
}

const asStrings = (v: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries((v ?? {}) as Record<string, unknown>).map(([k, x]) => [k, x === null ? "" : String(x)]));

/** compose `environment:` as a map or as a list of KEY=value. */
function composeEnv(v: unknown): Record<string, string> {
  if (!Array.isArray(v)) return asStrings(v);
  return Object.fromEntries(v.map((s: string) => [s.split("=")[0], s.includes("=") ? s.slice(s.indexOf("=") + 1) : ""]));
}

/** A compose or Kubernetes command as argv (a string is split on spaces, as compose does). */
const argv = (v: unknown): string[] | null => (Array.isArray(v) ? v.map(String) : typeof v === "string" ? v.split(/\s+/).filter(Boolean) : null);

/** The container side of a compose port ("127.0.0.1:3000:3000", "3000", {target: 3000}). */
export function composeTargetPort(p: unknown): number {
  if (typeof p === "object" && p !== null) return Number((p as Yaml).target);
  return Number(String(p).split("/")[0].split(":").at(-1));
}

export const isProductService = (s: Yaml): boolean => s.image === "pg-broker-bench" || String(s.build?.dockerfile ?? "").endsWith("deploy/Dockerfile");

/** The compose services that run the product's image. */
export function composeContainers(compose: Yaml, image: Dockerfile): Container[] {
  return Object.entries((compose.services ?? {}) as Record<string, Yaml>)
    .filter(([, s]) => isProductService(s))
    .map(([name, s]) => {
      // compose's `command` replaces CMD, its `entrypoint` ENTRYPOINT.
      const command = argv(s.command) ?? image.cmd ?? [];
      const entrypoint = argv(s.entrypoint) ?? image.entrypoint ?? [];
      const setEnv = composeEnv(s.environment);
      const hc = argv(s.healthcheck?.test);
      return {
        where: `compose service ${name}`,
        name,
        role: roleOf(command),
        entrypoint,
        command,
        setEnv,
        env: { ...image.env, ...setEnv },
        ports: ((s.ports ?? []) as unknown[]).map(composeTargetPort),
        published: Array.isArray(s.ports) && s.ports.length > 0,
        probes: hc && hc[0] !== "NONE" ? [hc[0] === "CMD" ? hc.slice(1) : hc] : [],
        nonRoot: !s.user || !/^(root|0)(:|$)/.test(String(s.user)),
      };
    });
}

export const readCompose = (): Yaml => parseYaml(readDeployFile("compose.yaml")) as Yaml;

/** Every document of every .yaml file in deploy/kubernetes/, each with the file it came from. */
export function readKubernetes(): { file: string; doc: Yaml }[] {
  const dir = path.join(DEPLOY_DIR, "kubernetes");
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(path.join(dir, file), "utf8")).map((d) => {
        if (d.errors.length) throw new Error(`deploy/kubernetes/${file}: ${d.errors[0].message}`);
        return { file, doc: d.toJSON() as Yaml };
      }),
    )
    .filter((x) => x.doc);
}

/** The key/value data of the ConfigMaps and Secrets, by "ConfigMap/name" and "Secret/name". */
export function kubernetesSources(docs: Yaml[]): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const d of docs) {
    if (d.kind === "ConfigMap") out.set(`ConfigMap/${d.metadata?.name}`, asStrings(d.data));
    if (d.kind === "Secret") {
      const b64 = Object.entries(asStrings(d.data)).map(([k, v]) => [k, Buffer.from(v, "base64").toString()]);
      out.set(`Secret/${d.metadata?.name}`, { ...Object.fromEntries(b64), ...asStrings(d.stringData) });
    }
  }
  return out;
}

const WORKLOADS = new Set(["Deployment", "StatefulSet", "Job", "DaemonSet"]);

/** Whether a Service's selector picks pods with these labels. */
export const selects = (service: Yaml, labels: Record<string, string>): boolean =>
  Object.entries((service.spec?.selector ?? {}) as Record<string, string>).every(([k, v]) => labels[k] === v);

/** The containers of the Deployments (and Jobs…) that run the product's image; `problems` gets unresolved references. */
export function kubernetesContainers(docs: Yaml[], image: Dockerfile, problems: string[]): Container[] {
  const sources = kubernetesSources(docs);
  const services = docs.filter((d) => d.kind === "Service");
  const out: Container[] = [];
  for (const d of docs.filter((x) => WORKLOADS.has(x.kind))) {
    const pod = d.spec?.template ?? {};
    const labels = (pod.metadata?.labels ?? {}) as Record<string, string>;
    const published = services.some((s) => selects(s, labels));
    for (const c of (pod.spec?.containers ?? []) as Yaml[]) {
      if (!String(c.image ?? "").startsWith("pg-broker-bench")) continue;
      const where = `kubernetes ${d.kind} ${d.metadata?.name}, container ${c.name}`;
      const setEnv: Record<string, string> = {};
      for (const from of (c.envFrom ?? []) as Yaml[]) {
        const key = from.configMapRef ? `ConfigMap/${from.configMapRef.name}` : `Secret/${from.secretRef?.name}`;
        const data = sources.get(key);
        if (!data) problems.push(`${where}: envFrom names ${key}, which no manifest in deploy/kubernetes/ defines`);
        Object.assign(setEnv, data ?? {});
      }
      for (const e of (c.env ?? []) as Yaml[]) setEnv[e.name] = e.value ?? (e.valueFrom ? "<from a reference>" : "");
      // Kubernetes' `command` replaces the image's ENTRYPOINT (and drops its CMD); `args` replaces CMD.
      const entrypoint = argv(c.command) ?? image.entrypoint ?? [];
      const command = argv(c.args) ?? (c.command ? [] : (image.cmd ?? []));
      const probes = [c.readinessProbe, c.livenessProbe, c.startupProbe].flatMap((p: Yaml | undefined) => (p?.exec?.command ? [argv(p.exec.command)!] : []));
      const sc = { ...(pod.spec?.securityContext ?? {}), ...(c.securityContext ?? {}) };
      out.push({
        where,
        name: String(d.metadata?.name),
        role: roleOf(command),
        entrypoint,
        command,
        setEnv,
        env: { ...image.env, ...setEnv },
        ports: ((c.ports ?? []) as Yaml[]).map((p) => Number(p.containerPort)),
        published,
        probes,
        nonRoot: sc.runAsNonRoot === true && sc.runAsUser !== 0,
        memoryLimitMb: c.resources?.limits?.memory === undefined ? undefined : quantityMb(String(c.resources.limits.memory)),
      });
    }
  }
  return out;
}

/** Each Service with its target ports as numbers: a named targetPort is looked up in the pods it selects (NaN if none). */
export function kubernetesServices(docs: Yaml[]): { name: string; targetPorts: number[] }[] {
  const pods = docs.filter((d) => WORKLOADS.has(d.kind)).map((d) => d.spec?.template ?? {});
  return docs
    .filter((d) => d.kind === "Service")
    .map((s) => {
      const containers = pods.filter((p) => selects(s, p.metadata?.labels ?? {})).flatMap((p) => (p.spec?.containers ?? []) as Yaml[]);
      const named = (n: string) => Number(containers.flatMap((c) => (c.ports ?? []) as Yaml[]).find((p) => p.name === n)?.containerPort ?? Number.NaN);
      const ports = (s.spec?.ports ?? []) as Yaml[];
      return {
        name: String(s.metadata?.name),
        targetPorts: ports.map((p) => (typeof p.targetPort === "string" ? named(p.targetPort) : Number(p.targetPort ?? p.port))),
      };
    });
}

const UNITS: Record<string, number> = { "": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };

/** A Kubernetes memory quantity ("2Gi", "1536Mi", "2G", "1073741824") in MiB; NaN when unreadable. */
export function quantityMb(q: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(q.trim());
  return m ? (Number(m[1]) * UNITS[m[2] ?? ""]) / 2 ** 20 : Number.NaN;
}
