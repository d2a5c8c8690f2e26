// The import-circle finder behind `npm run lint` (scripts/import-cycles.ts): it must read the real graph and
// find a circle when there is one, or lint's "no circle" would prove nothing.
import * as path from "node:path";
import { circles, importGraph, SRC } from "../../../scripts/import-cycles";

describe("src/ import graph (scripts/import-cycles.ts)", () => {
  const graph = importGraph();

  it("reads every source file and follows relative imports", () => {
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    expect(graph.size).toBeGreaterThan(200);
    expect(edges).toBeGreaterThan(graph.size);
    expect(graph.get(path.join(SRC, "api/index.ts"))).toContain(path.join(SRC, "api/client.ts"));
  });

  it("reads type-only imports too", () => {
    // src/api/cache-codec.ts imports DatapointRecord from ./types with `import type` only.
    expect(graph.get(path.join(SRC, "api/cache-codec.ts"))).toContain(path.join(SRC, "api/types.ts"));
  });

  it("finds a circle when there is one", () => {
    const a = path.join(SRC, "a.ts");
    const b = path.join(SRC, "b.ts");
    const c = path.join(SRC, "c.ts");
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [a, c]],
          [c, []],
        ]),
      ),
    ).toEqual([["src/a.ts", "src/b.ts"]]);
  });

  it("finds a file that imports itself", () => {
    const a = path.join(SRC, "a.ts");
    expect(circles(new Map([[a, [a]]]))).toEqual([["src/a.ts"]]);
  });

  it("finds no circle in src/ today (as lint does)", () => {
    expect(circles(graph)).toEqual([]);
  });
});
