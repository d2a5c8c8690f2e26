// `npm run lint`'s structure check: no import circle in src/, type-only imports included. It reads every
// import of src/ with the TypeScript compiler's own scanner and module resolution (about a second), where
// eslint-plugin-import-x's no-cycle rule took 18 s of lint's CPU (60% of all rules) and skipped `import type`.
// Run as a script it prints each circle and exits 1; test/unit/structure/import-cycles.test.ts tests the finder.
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(__dirname, "..");
export const SRC = path.join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Each file of src/ with the files of src/ it imports or re-exports (values and types alike). */
export function importGraph(): Map<string, string[]> {
  const options: ts.CompilerOptions = {
    moduleResolution: ts.ModuleResolutionKind.Node10,
    jsx: ts.JsxEmit.ReactJSX,
  };
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const scanned = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const targets = scanned.importedFiles
      .map(
        (ref) => ts.resolveModuleName(ref.fileName, file, options, ts.sys).resolvedModule?.resolvedFileName,
      )
      .filter((target): target is string => target !== undefined && target.startsWith(SRC + path.sep))
      .filter((target) => !target.endsWith(".d.ts"));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The strongly connected components of more than one file (or a file importing itself): the circles, each
 * as paths relative to the repository, sorted (Tarjan's algorithm).
 */
export function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(path.relative(ROOT, member));
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

if (require.main === module) {
  const found = circles(importGraph());
  for (const circle of found) console.error(`import circle: ${circle.join(" <-> ")}`);
  if (found.length > 0) {
    console.error(
      `${found.length} import ${found.length === 1 ? "circle" : "circles"} in src/: split the shared part out by concept.`,
    );
    process.exit(1);
  }
}
