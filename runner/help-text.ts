// The CLI's help texts laid out for a terminal: no line longer than HELP_WIDTH, a flag's text beside it and its
// following lines under that text.

/** The longest line any --help prints. */
export const HELP_WIDTH = 100;

/** `text` in lines of at most `width` characters, broken at spaces; every line after the first starts with `indent`. */
export function wrap(text: string, indent = "", first = "", width = HELP_WIDTH): string[] {
  // A word longer than a line (a list without spaces: a,b,c) may also break after its commas: its pieces are
  // glued back without a space when they share a line.
  const pieces = text
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((w) => (w.length > width - indent.length ? w.split(/(?<=,)/) : [w]).map((p, i) => ({ p, glued: i > 0 })));
  const lines: string[] = [];
  let line = first;
  for (const { p, glued } of pieces) {
    const empty = line.length === (lines.length ? indent : first).length;
    const next = empty ? line + p : `${line}${glued ? "" : " "}${p}`;
    if (!empty && [...next].length > width) {
      lines.push(line);
      line = indent + p;
    } else line = next;
  }
  lines.push(line);
  return lines;
}

/** The column a flag's text starts at. */
const TEXT_AT = 26;

/** "  -name ARG      text…", the text wrapped under itself; below the name when the name is too long for its column. */
export function flagLines(name: string, text: string): string[] {
  const head = `  ${name}`;
  const indent = " ".repeat(TEXT_AT);
  if (head.length >= TEXT_AT - 1) return [head, ...wrap(text, indent, indent)];
  return wrap(text, indent, head.padEnd(TEXT_AT));
}
