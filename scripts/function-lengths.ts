// The length of every named function of the code, in lines, read from the sources' syntax alone (the `typescript`
// package's parser, one file at a time, no program: fast): function declarations, methods, accessors, and arrow
// functions or function expressions assigned to a name (a variable, a property). runner/function-length.test.ts
// holds runner/ to a limit with it; run on its own it prints the longest functions of the whole code:
//   node --import tsx scripts/function-lengths.ts [count] [folder…]
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { PROJECT_ROOT } from "../lib/paths";

/** The folders of the app, the runner, the workloads and the scripts: the whole code. */
export const CODE_FOLDERS = ["lib", "components", "app", "runner", "workloads", "scripts"];
const CODE = /\.(ts|tsx|mts|cts)$/;
const TEST = /\.test\.tsx?$/;
const SKIP = new Set(["node_modules", "generated"]);

export interface FunctionLength {
  /** The file, relative to the project's root. */
  file: string;
  /** Its name as written (Class.method for a method, the variable's or the property's name for an arrow). */
  name: string;
  /** The line it starts on (1-based). */
  line: number;
  lines: number;
}

/** The code files under `dir` (relative to the root), tests left out unless `withTests`. */
export function codeFilesUnder(dir: string, withTests = false, out: string[] = []): string[] {
  for (const e of readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })) {
    if (SKIP.has(e.name) || e.name.startsWith(".")) continue;
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) codeFilesUnder(rel, withTests, out);
    else if (CODE.test(e.name) && !e.name.endsWith(".d.ts") && (withTests || !TEST.test(e.name))) out.push(rel);
  }
  return out;
}

/** The name a function goes by, or undefined for an anonymous one (a callback passed inline). */
function nameOf(node: ts.Node, sf: ts.SourceFile): string | undefined {
  const text = (n: ts.Node | undefined) => (n && (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isPrivateIdentifier(n)) ? n.text : n?.getText(sf));
  const owner = (n: ts.Node) => {
    const c = n.parent;
    return c && (ts.isClassDeclaration(c) || ts.isClassExpression(c)) && c.name ? `${c.name.text}.` : "";
  };
  if (ts.isFunctionDeclaration(node)) return node.name?.text ?? "default";
  if (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) return `${owner(node)}${text(node.name)}`;
  if (ts.isConstructorDeclaration(node)) return `${owner(node)}constructor`;
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
    const p = node.parent;
    if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) return text(p.name);
    if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken) return p.left.getText(sf);
    if (ts.isFunctionExpression(node) && node.name) return node.name.text;
  }
  return undefined;
}

/** Every named function of one file with its length in lines (from its first line to its last, both counted). */
export function functionLengthsOf(file: string): FunctionLength[] {
  const source = readFileSync(path.join(PROJECT_ROOT, file), "utf8");
  const kind = file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const name = nameOf(node, sf);
      if (name !== undefined) {
        const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        out.push({ file, name, line: first + 1, lines: last - first + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every named function under `folders`, longest first. */
export function longestFunctions(folders: readonly string[] = CODE_FOLDERS): FunctionLength[] {
  return folders
    .flatMap((d) => codeFilesUnder(d))
    .flatMap(functionLengthsOf)
    .sort((a, b) => b.lines - a.lines);
}

export const describeFunction = (f: FunctionLength) => `${f.name} (${f.file}:${f.line}, ${f.lines} lines)`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [count = "10", ...folders] = process.argv.slice(2);
  const all = longestFunctions(folders.length ? folders : CODE_FOLDERS);
  for (const f of all.slice(0, Number(count))) console.log(`${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}`);
  console.log(`(${all.length} named functions; over 150 lines: ${all.filter((f) => f.lines > 150).length})`);
}
