// Follows a request through the code the way a reader does, and counts how often the reading comes
// back to a file it had already left. Issues 25 and 29 ask that the write and read paths "return to
// files they already left fewer times"; this is the count they are measured by.
//
//   node tools/call-path.ts <entry> [<entry> ...] [--only DIR ...] [--project tsconfig.json] [--trace] [--timeline]
//
// An entry is `file#name` (a function, or a `const name = (…) => …`) or `file:line` (the innermost
// function containing that line: a route handler has no name). Several entries are read one after
// the other, as one path (a door's handler, then the resolver it leads to, …).
//
// How it reads: depth first, in source order, every call (and every project function passed as an
// argument, which the callee calls) whose callee resolves — through imports and re-exports — to a
// function with a body in this repository (node_modules, .d.ts and tests excluded). A function is
// read once: a second call to it is not followed again, as a reader would not re-read it. Calls
// through an interface or a value of function type are not followed (the type checker cannot name
// their body). Reading the callee enters its file; finishing it comes back to the caller's file.
// The timeline is that sequence of files with repeats collapsed; a "return" is an entry into a file
// that appears earlier in the timeline. It is a static reading, not a runtime trace: both branches
// of an `if` are read. `--only DIR` (repeatable) keeps only the files under those folders in the
// timeline — the path's own layer, say, without the model's leaf helpers (urn parsing, errors) —
// while still following calls through the others.
//
// Count in a checkout with its own node_modules: the workspace packages (@lineage/*) resolve through
// node_modules' links, so a worktree borrowing another checkout's node_modules would read that
// checkout's code (the tool refuses when a file it reads lies outside the current directory).
import path from 'node:path';
import { commandLine } from './cli/command-line.ts';
import ts from 'typescript';

const { values: options, positionals: entries } = commandLine(
  'node tools/call-path.ts <file#function | file:line> ... [--only DIR ...] [--project tsconfig.json] [--trace] [--timeline]',
  {
    allowPositionals: true,
    options: {
      project: { type: 'string', default: 'tsconfig.json' },
      trace: { type: 'boolean', default: false },
      timeline: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true, default: [] },
    },
  },
);
if (entries.length === 0) {
  console.error('usage: node tools/call-path.ts <file#function | file:line> ... [--project tsconfig.json] [--trace]');
  process.exit(2);
}

const root = process.cwd();
const config = ts.getParsedCommandLineOfConfigFile(
  path.resolve(options.project),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
if (!config) throw new Error(`cannot read ${options.project}`);
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();

type FunctionLike = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression | ts.ConstructorDeclaration;

function isProjectFile(file: ts.SourceFile): boolean {
  const name = file.fileName;
  return (
    !file.isDeclarationFile && !name.includes('/node_modules/') && !/\.test\.ts$/.test(name) && !name.includes(`${path.sep}test${path.sep}`)
  );
}

function bodyOf(declaration: ts.Declaration): FunctionLike | undefined {
  if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration) || ts.isConstructorDeclaration(declaration)) {
    return declaration.body ? declaration : undefined;
  }
  if (ts.isArrowFunction(declaration) || ts.isFunctionExpression(declaration)) return declaration;
  if (
    (ts.isVariableDeclaration(declaration) || ts.isPropertyAssignment(declaration) || ts.isPropertyDeclaration(declaration)) &&
    declaration.initializer
  ) {
    const init = declaration.initializer;
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init;
  }
  return undefined;
}

function functionAt(node: ts.Node): FunctionLike | undefined {
  let symbol = checker.getSymbolAtLocation(node);
  if (!symbol) return undefined;
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  for (const declaration of symbol.declarations ?? []) {
    const fn = bodyOf(declaration);
    if (fn && isProjectFile(fn.getSourceFile())) return fn;
  }
  return undefined;
}

function calleeOf(call: ts.CallExpression | ts.NewExpression): FunctionLike | undefined {
  let callee: ts.Node = call.expression;
  while (ts.isParenthesizedExpression(callee) || ts.isNonNullExpression(callee)) callee = callee.expression;
  if (ts.isPropertyAccessExpression(callee)) return functionAt(callee.name);
  if (ts.isIdentifier(callee)) return functionAt(callee);
  return undefined;
}

function relative(file: ts.SourceFile): string {
  return path.relative(root, file.fileName);
}

const read = new Set<FunctionLike>();
const timeline: string[] = [];
const trace: string[] = [];

const kept = (file: string) =>
  options.only.length === 0 || options.only.some((dir) => file.startsWith(dir.endsWith('/') ? dir : `${dir}/`));

function enter(file: string): void {
  if (kept(file) && timeline.at(-1) !== file) timeline.push(file);
}

function nameOf(fn: FunctionLike): string {
  if ('name' in fn && fn.name) return fn.name.getText();
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  const { line } = fn.getSourceFile().getLineAndCharacterOfPosition(fn.getStart());
  return `<anonymous:${line + 1}>`;
}

function readFunction(fn: FunctionLike, depth: number): void {
  read.add(fn);
  const file = relative(fn.getSourceFile());
  enter(file);
  trace.push(`${'  '.repeat(depth)}${file}#${nameOf(fn)}`);
  const visit = (node: ts.Node): void => {
    const targets: FunctionLike[] = [];
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const callee = calleeOf(node);
      if (callee) targets.push(callee);
      for (const arg of node.arguments ?? []) {
        if (ts.isIdentifier(arg) || ts.isPropertyAccessExpression(arg)) {
          const passed = functionAt(ts.isIdentifier(arg) ? arg : arg.name);
          if (passed) targets.push(passed);
        }
      }
    }
    // Arguments first (they are evaluated before the call), then the callee.
    ts.forEachChild(node, visit);
    for (const target of targets.reverse()) {
      if (read.has(target)) continue;
      readFunction(target, depth + 1);
      enter(file);
    }
  };
  if (fn.body) ts.forEachChild(fn.body, visit);
}

function entryFunction(spec: string): FunctionLike {
  const hash = spec.lastIndexOf('#');
  const colon = spec.lastIndexOf(':');
  const [fileName, locator] = hash > 0 ? [spec.slice(0, hash), spec.slice(hash + 1)] : [spec.slice(0, colon), spec.slice(colon + 1)];
  const file = program.getSourceFile(path.resolve(fileName));
  if (!file) throw new Error(`${fileName} is not in the project ${options.project}`);
  let found: FunctionLike | undefined;
  const line = hash > 0 ? undefined : Number(locator) - 1;
  const search = (node: ts.Node): void => {
    const fn = bodyOf(node as ts.Declaration) ?? (ts.isArrowFunction(node) || ts.isFunctionExpression(node) ? node : undefined);
    if (fn) {
      if (line === undefined && nameOf(fn) === locator && !found) found = fn;
      if (line !== undefined) {
        const start = file.getLineAndCharacterOfPosition(fn.getStart()).line;
        const end = file.getLineAndCharacterOfPosition(fn.getEnd()).line;
        if (start <= line && line <= end) found = fn; // innermost wins: children are visited later
      }
    }
    ts.forEachChild(node, search);
  };
  search(file);
  if (!found) throw new Error(`no function ${locator} in ${fileName}`);
  return found;
}

for (const spec of entries) {
  const fn = entryFunction(spec);
  if (!read.has(fn)) readFunction(fn, 0);
}

const seen = new Set<string>();
const returnsTo = new Map<string, number>();
let returns = 0;
for (const file of timeline) {
  if (seen.has(file)) {
    returns += 1;
    returnsTo.set(file, (returnsTo.get(file) ?? 0) + 1);
  }
  seen.add(file);
}

if (options.trace) console.log(trace.join('\n'));
if (options.timeline) console.log(timeline.join('\n'));
// A checkout whose node_modules links the workspace packages (@lineage/*) to another checkout — a
// git worktree sharing main's node_modules, say — resolves their imports there, so the count would
// read that checkout's code. Refuse rather than count the wrong tree.
const elsewhere = [...seen].filter((file) => file.startsWith('..'));
if (elsewhere.length) {
  console.error(
    `call-path: ${elsewhere.length} file(s) read outside ${root}, e.g. ${elsewhere[0]}: this checkout's node_modules links its workspace packages elsewhere; give it its own (npm ci) before counting`,
  );
  process.exit(1);
}
console.log(`functions read: ${read.size}`);
console.log(`files: ${seen.size}`);
console.log(`file changes: ${timeline.length - 1}`);
console.log(`returns to a file already left: ${returns}`);
for (const [file, n] of [...returnsTo].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(3)}  ${file}`);
