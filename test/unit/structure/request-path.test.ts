// The path of a cell's request (docs/architecture.md, "The path of a cell's request"): from the FDQ function to
// HTTP and back in ten files, each below the one before. Read from the real import graph (scripts/import-cycles.ts),
// so the claim cannot drift: no file on the path imports a file above it, directly or through the modules it uses
// beside the path (the day cache's store, RequestKey, the decoders...), and the page walks the same files in the
// same order.
import * as fs from "node:fs";
import * as path from "node:path";
import { importGraph, SRC } from "../../../scripts/import-cycles";

/** The path, top down: what the page walks. */
const PATH = [
  "functions/functions.ts",
  "functions/impl/datapoint.ts",
  "api/client.ts",
  "api/call-requests.ts",
  "api/period-resolver.ts",
  "api/ticker-coverage.ts",
  "api/day-answers.ts",
  "api/coalescer.ts",
  "api/transport.ts",
  "api/answer-reading.ts",
].map((file) => path.join(SRC, file));

const relative = (file: string): string => path.relative(SRC, file);

/**
 * The files of the path that `file` reaches through its imports, stopping at each file of the path it meets
 * (what lies below that one is that one's business).
 */
function pathFilesReached(graph: Map<string, string[]>, file: string): Set<string> {
  const reached = new Set<string>();
  const seen = new Set<string>([file]);
  const queue = [...(graph.get(file) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    if (PATH.includes(next)) reached.add(next);
    else queue.push(...(graph.get(next) ?? []));
  }
  return reached;
}

describe("the path of a cell's request", () => {
  const graph = importGraph();

  it("is ten files of src/ that exist", () => {
    expect(PATH).toHaveLength(10);
    for (const file of PATH) expect(graph.has(file)).toBe(true);
  });

  it.each(PATH.map((file, i) => [relative(file), i] as const))(
    "%s imports no file of the path above it, directly or beside the path",
    (_name, i) => {
      const above = [...pathFilesReached(graph, PATH[i]!)]
        .filter((target) => PATH.indexOf(target) <= i)
        .map(relative);
      expect(above).toEqual([]);
    },
  );

  it("each file below the first is reached from a file above it (the path is connected)", () => {
    const reached = PATH.map((file) => pathFilesReached(graph, file));
    const unreached = PATH.slice(1)
      .filter((file, i) => !reached.slice(0, i + 1).some((r) => r.has(file)))
      .map(relative);
    expect(unreached).toEqual([]);
  });

  it("finds a file that imports one above it (the check can fail)", () => {
    const broken = new Map(graph);
    broken.set(PATH[6]!, [...(graph.get(PATH[6]!) ?? []), PATH[2]!]);
    expect([...pathFilesReached(broken, PATH[6]!)].map(relative)).toContain("api/client.ts");
  });

  it("is the path docs/architecture.md walks, in the same order", () => {
    const page = fs.readFileSync(path.join(SRC, "..", "docs", "architecture.md"), "utf8");
    const section = page.slice(
      page.indexOf("## The path of a cell's request"),
      page.indexOf("## The request module"),
    );
    const named = [...section.matchAll(/^\d+\. \*\*[^*]+\*\* \(`src\/([^`]+)`/gm)].map((m) => m[1]);
    expect(named).toEqual(PATH.map(relative));
  });
});
