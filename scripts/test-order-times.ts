// A node:test reporter (scripts/test-run.ts adds it beside the spec and TAP ones): when the pass ends it prints the
// slowest test files with their own wall time, from the process start to the end, so that CI's log says which files
// its time goes to (the spec reporter names tests, not files) and scripts/test-order.ts's lists can follow it.
// Node loads a reporter itself, stripping its types without tsx, so it imports nothing of the project's.
import path from "node:path";

/** How many of the slowest files the closing table lists. */
const SHOWN = 25;

interface TestEvent {
  type: string;
  data?: { name?: string; file?: string; nesting?: number; details?: { duration_ms?: number } };
}

/**
 * Each file's own duration, slowest first: node's runner ends every file with a top-level test named after the
 * path it was given, whose duration spans the file's process, its loading and hooks included.
 */
export function fileDurations(events: TestEvent[], cwd = process.cwd()): { file: string; ms: number }[] {
  const out: { file: string; ms: number }[] = [];
  for (const { type, data } of events) {
    if (type !== "test:complete" || data?.nesting !== 0 || !data.name || !data.file) continue;
    if (path.resolve(cwd, data.name) !== data.file) continue; // one of the file's own tests, not the file
    out.push({ file: path.relative(cwd, data.file), ms: data.details?.duration_ms ?? 0 });
  }
  return out.sort((a, b) => b.ms - a.ms);
}

/** The closing table: the slowest files, and the sum over all (the CPU-bound part of it shows in `time`). */
export function durationTable(files: { file: string; ms: number }[]): string {
  const total = files.reduce((s, f) => s + f.ms, 0);
  const rows = files.slice(0, SHOWN).map((f) => `  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file}`);
  return `\nslowest test files (each file's own wall time; ${files.length} file${files.length === 1 ? "" : "s"}, ${(total / 1000).toFixed(0)} s summed):\n${rows.join("\n")}\n`;
}

export default async function* slowestFiles(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const ends: TestEvent[] = [];
  for await (const event of source) if (event.type === "test:complete" && event.data?.nesting === 0) ends.push(event);
  yield durationTable(fileDurations(ends));
}
