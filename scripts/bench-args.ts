// The benchmark scripts' flags: `--name value` or `--name=value`, every flag taking a value, unknown ones refused.
export function benchArgs(argv: string[], known: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const m = argv[i].match(/^--?([\w-]+)(?:=(.*))?$/);
    if (!m) throw new Error(`unexpected argument "${argv[i]}"`);
    const v = m[2] ?? argv[++i];
    if (v === undefined) throw new Error(`--${m[1]} needs a value`);
    out[m[1]] = v;
  }
  for (const k of Object.keys(out)) if (!known.includes(k)) throw new Error(`unknown flag --${k} (flags: ${known.map((n) => `--${n}`).join(" ")})`);
  return out;
}
