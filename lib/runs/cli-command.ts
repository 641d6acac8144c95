// The exact `npm run bench` command that reproduces a run's config headlessly. Flags are the reference
// tool's names (its command-line flags) so a reader of either tool recognises them; --warmup and --target are
// this product's additions. The runner's CLI (runner/cli.ts) parses exactly these: both come from the
// workload's field table (workloads/<kind>/definition.ts).
import { definitionOf, type WorkloadConfig } from "../workloads/config";

/** Quotes for a POSIX shell when needed: 'it'\''s'. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `npm run bench -- pubsub -writers 10 … --warmup 5s`, plus `--target '<url>'` for a non-default target.
 * Pass the *masked* URL for display: the reader fills in the password (the browser never has it).
 * `env` goes before the command (`DATA_DIR=/x npm run bench -- …`): how the CLI finds the default
 * target's server when the app runs with another DATA_DIR or EMBEDDED_TARGET_PG_PORT (lib/targets/default-target.ts).
 * `targetArgs` pick the target in place of --target: the embedded replicated target's `--replicas 2`.
 */
export function toCliCommand(config: WorkloadConfig, targetUrl?: string, env: Record<string, string> = {}, targetArgs: string[] = []): string {
  const def = definitionOf(config);
  const order = def.commandOrder ?? [];
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  // The reference tool's flags first, in its usual order; this product's own (--warmup) after them.
  const fields = def.fields
    .filter((f) => f.cli)
    .map((f, i) => ({ f, i }))
    .sort((a, b) => Number(!!a.f.cli!.ours) - Number(!!b.f.cli!.ours) || rank(a.f.name) - rank(b.f.name) || a.i - b.i)
    .map(({ f }) => f);
  const args: string[] = [config.kind];
  for (const f of fields) {
    const v = (config as Record<string, unknown>)[f.name];
    // A flag that implies another field's value (--drain N: drain mode) is named only where that value holds.
    const implies = f.cli!.implies;
    if (implies && (config as Record<string, unknown>)[implies.field] !== implies.value) continue;
    const flag = `${f.cli!.ours ? "--" : "-"}${f.cli!.flag}`;
    if (f.control === "bool") {
      if (v === true) args.push(flag); // a switch is named only when on, as one would type it
    } else if (f.control === "select" || f.control === "text") {
      // A choice or a text is named only when not the default.
      if (v === undefined || v === f.default) continue;
      // A repeatable flag's items, one flag each, as they were typed (--phase A --phase B).
      const items = f.cli!.repeatable ? String(v).split(", ") : [String(v)];
      for (const item of items) args.push(flag, f.control === "text" ? shellQuote(item) : item);
    } else if (v !== undefined && !(f.cli!.omitDefault && v === f.default))
      args.push(flag, f.cli!.duration === "ms" ? `${v}ms` : f.cli!.duration ? `${v}s` : String(v));
  }
  if (targetUrl) args.push("--target", shellQuote(targetUrl));
  args.push(...targetArgs);
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)} `);
  return `${assignments.join("")}npm run bench -- ${args.join(" ")}`;
}
