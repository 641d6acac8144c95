// What `npm start`'s supervisors (platform/supervisor.ts) told the web app about the parts they keep alive: the
// embedded Postgres of the control store, the default target's own one, and the runner. Kept on globalThis because the custom server
// (scripts/serve-next.ts) and the bundled route handlers load this module separately in one process.
import type { PartState } from "./supervisor";

export type SupervisorStates = { controlStore?: PartState; runner?: PartState; defaultTarget?: PartState };

const g = globalThis as unknown as { __pgbbSupervisor?: SupervisorStates };

export function setSupervisorStates(s: SupervisorStates) {
  g.__pgbbSupervisor = s;
}

export function supervisorStates(): SupervisorStates {
  return g.__pgbbSupervisor ?? {};
}

/** "the control store is restarting (…)" while the supervisor restarts the embedded Postgres, else null. */
export function controlStoreDown(): string | null {
  const c = supervisorStates().controlStore;
  if (c?.state !== "restarting") return null;
  return `the control store is restarting (${c.detail.replace(/; restarting$/, "")}, ${Math.round((Date.now() - c.since) / 1000)} s ago)`;
}

/** "the runner is restarting (…)" while the supervisor restarts the runner, else null. */
export function runnerDown(): string | null {
  const r = supervisorStates().runner;
  if (r?.state !== "restarting") return null;
  return `the runner is restarting (${r.detail.replace(/; restarting$/, "")}, ${Math.round((Date.now() - r.since) / 1000)} s ago)`;
}
