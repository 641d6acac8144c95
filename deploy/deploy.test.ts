// deploy/ is checked against the product it deploys: these machines cannot run Docker or Kubernetes, so the
// Dockerfile, compose.yaml and the Kubernetes manifests are parsed (deploy/manifests.ts) and judged
// (deploy/checks.ts): the variables they set are ones the product reads and the ones it needs are set, the
// commands exist, the ports agree, the image's Node is at the floor, runners publish nothing, the app binds
// every interface in its container. The last tests make the mistakes on purpose and see each check catch it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "../lib/paths";
import {
  agreementProblems,
  memoryProblems,
  commandProblems,
  composeProblems,
  hostProblems,
  indexedJobProblems,
  nodeFloorProblems,
  packageScripts,
  portProblems,
  productEnvNames,
  requiredEnvProblems,
  rootProblems,
  runnerArgProblems,
  runnerPortProblems,
  unknownEnvProblems,
} from "./checks";
import {
  type Container,
  composeContainers,
  type Dockerfile,
  kubernetesContainers,
  kubernetesServices,
  parseDockerfile,
  quantityMb,
  readCompose,
  readDeployFile,
  readKubernetes,
} from "./manifests";

const engines = (JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
const scripts = packageScripts();
const known = productEnvNames();

/** Everything deploy/ declares, read afresh (tests below change their copy). */
function load() {
  const image = parseDockerfile(readDeployFile("Dockerfile"));
  const compose = readCompose();
  const docs = readKubernetes().map((x) => x.doc);
  const refProblems: string[] = [];
  const kube = kubernetesContainers(docs, image, refProblems);
  return { image, compose, docs, kube, refProblems, composed: composeContainers(compose, image) };
}

/** Every check over one reading: the problems of all of them. */
function allProblems(d: ReturnType<typeof load>): string[] {
  const containers = [...d.composed, ...d.kube];
  return [
    ...d.refProblems,
    ...nodeFloorProblems(d.image, engines),
    ...unknownEnvProblems(containers, d.image, known),
    ...requiredEnvProblems(containers),
    ...commandProblems(containers, d.image, scripts),
    ...portProblems(containers, d.image, kubernetesServices(d.docs)),
    ...runnerPortProblems(containers),
    ...hostProblems(containers),
    ...rootProblems(containers, d.image),
    ...composeProblems(d.compose, d.composed),
    ...agreementProblems(d.composed),
    ...agreementProblems(d.kube),
    ...memoryProblems(containers),
    ...runnerArgProblems(containers),
    ...indexedJobProblems(d.docs),
  ];
}

test("deploy/ declares the app and a runner in compose and in Kubernetes (and an Indexed Job of parts), from one image", () => {
  const d = load();
  const roles = (cs: Container[]) => cs.map((c) => `${c.name}:${c.role}`).sort();
  assert.deepEqual(roles(d.composed), ["app:app", "runner:runner"]);
  assert.deepEqual(roles(d.kube), ["pg-broker-bench-app:app", "pg-broker-bench-parts:runner", "pg-broker-bench-runner:runner"]);
  assert.deepEqual(d.image.cmd, ["npm", "start"]);
  assert.deepEqual(d.image.entrypoint, ["/usr/bin/tini", "--"]);
  assert.ok(
    d.image.runs.some((r) => /\bnpm install\b/.test(r)),
    "the image installs with npm install",
  );
  assert.ok(
    d.image.runs.some((r) => /\bnpm run build\b/.test(r)),
    "the image builds the web app",
  );
  assert.match(scripts.postinstall, /prisma-generate/, "npm install's postinstall generates the Prisma client the image needs");
});

test("the image runs Node at or above the product's floor", () => {
  assert.deepEqual(nodeFloorProblems(load().image, engines), []);
});

test("every variable deploy/ sets is one the product reads, and each role gets the ones it needs", () => {
  const d = load();
  const containers = [...d.composed, ...d.kube];
  assert.deepEqual(d.refProblems, []);
  assert.deepEqual(unknownEnvProblems(containers, d.image, known), []);
  assert.deepEqual(requiredEnvProblems(containers), []);
});

test("every command deploy/ runs exists: npm scripts of package.json, files of the repository", () => {
  const d = load();
  assert.deepEqual(commandProblems([...d.composed, ...d.kube], d.image, scripts), []);
});

test("ports agree; runners publish none; the app binds every interface in its container; nothing runs as root", () => {
  const d = load();
  const containers = [...d.composed, ...d.kube];
  assert.deepEqual(portProblems(containers, d.image, kubernetesServices(d.docs)), []);
  assert.deepEqual(runnerPortProblems(containers), []);
  assert.deepEqual(hostProblems(containers), []);
  assert.deepEqual(rootProblems(containers, d.image), []);
  // The product's own default stays loopback: only the image changes it.
  assert.equal(d.image.env.HOST, "0.0.0.0");
});

test("compose waits for healthy databases and the app, and keeps the control store and the target apart", () => {
  const d = load();
  assert.deepEqual(composeProblems(d.compose, d.composed), []);
});

test("the app and its runners share the control store, the default target and the memory budget", () => {
  const d = load();
  assert.deepEqual(agreementProblems(d.composed), []);
  assert.deepEqual(agreementProblems(d.kube), []);
});

test("a runner's memory budget fits under its container's memory limit", () => {
  const d = load();
  assert.deepEqual(memoryProblems([...d.composed, ...d.kube]), []);
  assert.ok(d.kube.every((c) => c.memoryLimitMb !== undefined && c.memoryLimitMb > 0));
  assert.deepEqual([quantityMb("2Gi"), quantityMb("1536Mi"), quantityMb("1048576"), quantityMb("2G")], [2048, 1536, 1, 2e9 / 2 ** 20]);
});

/** Applies `mistake` to a fresh reading and returns the problems that every check then reports. */
function withMistake(mistake: (d: ReturnType<typeof load>) => void): string[] {
  const d = load();
  mistake(d);
  // Containers are derived from the files: re-derive after the change.
  const refProblems: string[] = [];
  const again = { ...d, composed: composeContainers(d.compose, d.image), kube: kubernetesContainers(d.docs, d.image, refProblems), refProblems };
  return allProblems(again);
}

const service = (d: ReturnType<typeof load>, name: string) => d.compose.services[name];
const kubeContainer = (d: ReturnType<typeof load>, workload: string) => d.docs.find((x) => x.metadata?.name === workload)!.spec.template.spec.containers[0];

test("each deliberate mistake in deploy/ is caught, named where it is", () => {
  assert.deepEqual(allProblems(load()), [], "today's files pass every check");
  const cases: [string, (d: ReturnType<typeof load>) => void, RegExp][] = [
    ["a misspelt variable", (d) => (service(d, "runner").environment.RUNNER_HEARTBEAT = "2000"), /compose service runner: RUNNER_HEARTBEAT is read by nothing/],
    ["a missing DATABASE_URL", (d) => delete service(d, "app").environment.DATABASE_URL, /compose service app: DATABASE_URL is not set/],
    [
      "a value lib/env.ts refuses",
      (d) => (service(d, "runner").environment.RUNNER_MEMORY_BUDGET_MB = "64"),
      /compose service runner: lib\/env.ts refuses .*RUNNER_MEMORY_BUDGET_MB must be at least 128/,
    ],
    ["an npm script that does not exist", (d) => (service(d, "runner").command = ["npm", "run", "runners"]), /package.json has no "runners" script/],
    [
      "a probe on a missing file",
      (d) => (kubeContainer(d, "pg-broker-bench-app").readinessProbe.exec.command = ["node", "deploy/health.mjs"]),
      /node deploy\/health.mjs: no such file/,
    ],
    [
      "an old Node",
      (d) => ((d.image as Dockerfile).from = "node:20-bookworm-slim"),
      /FROM node:20-bookworm-slim runs Node 20, below the product's floor of Node 22/,
    ],
    ["a published runner", (d) => (service(d, "runner").ports = ["3001:3000"]), /compose service runner: a runner listens on nothing/],
    [
      "a port that disagrees",
      (d) => (kubeContainer(d, "pg-broker-bench-app").ports[0].containerPort = 8080),
      /port 8080 is declared but the app listens on PORT 3000/,
    ],
    [
      "a Service on the wrong port",
      (d) => (d.docs.find((x) => x.kind === "Service")!.spec.ports[0].targetPort = 3001),
      /Service pg-broker-bench: targetPort 3001 is not the app's port/,
    ],
    ["an app bound to loopback", (d) => (service(d, "app").environment.HOST = "127.0.0.1"), /compose service app: the app binds 127.0.0.1/],
    [
      "an image without HOST (the product's loopback default)",
      (d) => delete d.image.env.HOST,
      /kubernetes Deployment pg-broker-bench-app, container app: the app binds 127.0.0.1/,
    ],
    [
      "a setting lib/env.ts refuses, in the ConfigMap",
      (d) => (d.docs.find((x) => x.kind === "ConfigMap")!.data.RUNNER_MEMORY_BUDGET_MB = "lots"),
      /pg-broker-bench-runner, container runner: lib\/env.ts refuses its environment: RUNNER_MEMORY_BUDGET_MB must be a number of MiB/,
    ],
    ["an unknown ConfigMap", (d) => (kubeContainer(d, "pg-broker-bench-runner").envFrom[0].configMapRef.name = "other"), /envFrom names ConfigMap\/other/],
    [
      "a Kubernetes command that replaces tini",
      (d) => {
        const c = kubeContainer(d, "pg-broker-bench-runner");
        c.command = c.args;
        delete c.args;
      },
      /pg-broker-bench-runner, container runner: runs "npm run runner" in place of the image's ENTRYPOINT \(tini\)/,
    ],
    ["a root user", (d) => ((d.image as Dockerfile).user = "root"), /Dockerfile: no USER \(or root\)/],
    [
      "a part's index the runner refuses",
      (d) => (kubeContainer(d, "pg-broker-bench-parts").args = ["npm", "run", "runner", "--", "--part", "first"]),
      /pg-broker-bench-parts, container part: the runner refuses its arguments "--part first": --part needs a part's index/,
    ],
    [
      "a part's index from an undeclared variable",
      (d) => (kubeContainer(d, "pg-broker-bench-parts").env = []),
      /\$\(PART_INDEX\) is not in the container's env, so Kubernetes passes it as it is/,
    ],
    [
      "a parts Job that is not Indexed",
      (d) => delete d.docs.find((x) => x.metadata?.name === "pg-broker-bench-parts")!.spec.completionMode,
      /pg-broker-bench-parts, container part: --part needs a Job with completionMode: Indexed/,
    ],
    [
      "parts that do not all run at once",
      (d) => (d.docs.find((x) => x.metadata?.name === "pg-broker-bench-parts")!.spec.parallelism = 2),
      /parallelism 2 with 4 completions: every part must run at once/,
    ],
    [
      "a runner option that does not exist",
      (d) => (kubeContainer(d, "pg-broker-bench-runner").args = ["npm", "run", "runner", "--", "--parts", "2"]),
      /pg-broker-bench-runner, container runner: the runner refuses its arguments "--parts 2": unknown option --parts/,
    ],
    ["a shell-form CMD", (d) => Object.assign(d.image, { cmd: null, cmdRaw: "npm start" }), /CMD npm start must be in exec form/],
    [
      "a wait on a service without a health check",
      (d) => delete service(d, "target").healthcheck,
      /TARGET_DATABASE_URL names host "target", which is no service of compose.yaml with a healthcheck/,
    ],
    [
      "one server for both databases",
      (d) => (service(d, "runner").environment.TARGET_DATABASE_URL = "postgresql://pgbb:pgbb@control:5432/bench"),
      /the control store and the target are one server/,
    ],
  ];
  for (const [what, mistake, expected] of cases) {
    const problems = withMistake(mistake);
    assert.ok(
      problems.some((p) => expected.test(p)),
      `${what}: expected a problem matching ${expected}, got ${JSON.stringify(problems)}`,
    );
  }
});

test("the Dockerfile parser reads continuations, both ENV forms, exec CMD and the final stage only", () => {
  const d = parseDockerfile(
    [
      "FROM node:20 AS build",
      "ENV OLD=1",
      "FROM node:24-slim",
      "# a comment",
      "ENV A=1 \\",
      '    B="two words"',
      "ENV C three",
      "USER node",
      "EXPOSE 3000/tcp",
      'CMD ["npm", "start"]',
    ].join("\n"),
  );
  assert.equal(d.from, "node:24-slim");
  assert.deepEqual(d.env, { A: "1", B: "two words", C: "three" });
  assert.deepEqual(d.cmd, ["npm", "start"]);
  assert.deepEqual(d.expose, [3000]);
  assert.equal(d.user, "node");
});
