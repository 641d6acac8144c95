// The replicated cluster's layout (<home>/cluster.json: ports, standby names, sync names, delay), written by
// the process that owns it once it runs, and read by the next start (to keep its ports) and by a command run
// meanwhile, which then uses that running cluster rather than starting one (platform/replicated.ts useReplicated).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pidAlive } from "./pid";
import type { ReplicaDelay } from "./relay";
import { countWords } from "../lib/words";

export interface Layout {
  ownerPid: number;
  primaryPort: number;
  standbys: { name: string; port: number; relayPort?: number }[];
  synchronousStandbyNames: string;
  delay?: ReplicaDelay;
}

/** The replicated target's home in a data folder: DATA_DIR/replicated. */
export function replicatedHome(dataDir: string): string {
  return path.join(dataDir, "replicated");
}

const file = (home: string) => path.join(home, "cluster.json");

export function readLayout(home: string): Layout | undefined {
  try {
    return JSON.parse(readFileSync(file(home), "utf8")) as Layout;
  } catch {
    return undefined;
  }
}

export function writeLayout(home: string, layout: Layout) {
  writeFileSync(file(home), `${JSON.stringify(layout, null, 2)}\n`);
}

/** What differs between the running cluster's shape and the one asked, or null. */
export function shapeDifference(layout: Layout, asked: { replicas: number; synchronousStandbyNames: string; replicaDelayMs?: number }): string | null {
  const delay = (ms?: number) => (ms ? `a delay of ${ms} ms` : "no delay");
  if (layout.standbys.length !== asked.replicas) return `${countWords(layout.standbys.length, "standby")}, not ${asked.replicas}`;
  if (layout.synchronousStandbyNames !== asked.synchronousStandbyNames)
    return `synchronous_standby_names '${layout.synchronousStandbyNames}', not '${asked.synchronousStandbyNames}'`;
  if ((layout.delay?.askedMs ?? 0) !== (asked.replicaDelayMs ?? 0)) return `${delay(layout.delay?.askedMs)}, not ${delay(asked.replicaDelayMs)}`;
  return null;
}

/** Who holds the home now: nobody; a live process still starting its cluster; or one whose cluster runs (its layout written). */
export type Holder = { state: "none" } | { state: "starting"; pid: number } | { state: "running"; pid: number; layout: Layout; password: string };

/** The home's holder, read from its lock (owner.pid), its layout and its password, without touching the cluster. */
export function holderOf(home: string): Holder {
  const read = (name: string) => {
    try {
      return readFileSync(path.join(home, name), "utf8").trim();
    } catch {
      return "";
    }
  };
  const pid = Number(read("owner.pid"));
  if (!pid || !pidAlive(pid)) return { state: "none" };
  const layout = readLayout(home);
  const password = read("pg-password");
  return layout?.ownerPid === pid && password ? { state: "running", pid, layout, password } : { state: "starting", pid };
}
