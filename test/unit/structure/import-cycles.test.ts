// No import circles in src/, type-only imports included. Lint's import-x/no-cycle (eslint.config.mjs) fails
// the circles that run (they decide load order); it skips `import type`, so this test adds those, read with
// the TypeScript compiler's own import scanner and module resolution.
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(__dirname, "../../..");
const SRC = path.join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Each file of src/ with the files of src/ it imports or re-exports (values and types alike). */
function importGraph(): Map<string, string[]> {
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

/** The strongly connected components of more than one file (or a file importing itself): the circles. */
function circles(graph: Map<string, string[]>): string[][] {
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

describe("src/ import graph", () => {
  const graph = importGraph();

  it("reads every source file and follows relative imports", () => {
    // A scanner that resolved nothing would find no circle and prove nothing.
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    expect(graph.size).toBeGreaterThan(200);
    expect(edges).toBeGreaterThan(graph.size);
    expect(graph.get(path.join(SRC, "api/index.ts"))).toContain(path.join(SRC, "api/client.ts"));
  });

  it("finds a circle when there is one", () => {
    const a = path.join(SRC, "a.ts");
    const b = path.join(SRC, "b.ts");
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([["src/a.ts", "src/b.ts"]]);
  });

  it("has no import circle, type-only imports included", () => {
    expect(circles(graph)).toEqual([]);
  });
});
