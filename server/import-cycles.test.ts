// No import cycles. A module that imports itself through others (at run time) runs with
// half-initialised imports, and Next.js and the worker bundle order modules differently;
// two folders of server/ that import each other (types included) are one domain in two
// places. A type-only cycle inside one folder is erased at compile time and allowed.
// madge reads the real import graph.
import madge from "madge";
import { describe, expect, it } from "vitest";

const ROOTS = ["server", "contracts", "worker/src"];
type Graph = Record<string, string[]>;

const graphs = new Map<boolean, Promise<Graph>>();
/** Each graph once per run (about two seconds each on an idle machine). */
function importGraph(withTypes: boolean): Promise<Graph> {
  if (!graphs.has(withTypes)) graphs.set(withTypes, readGraph(withTypes));
  return graphs.get(withTypes)!;
}

async function readGraph(withTypes: boolean): Promise<Graph> {
  const res = await madge(ROOTS, {
    baseDir: process.cwd(),
    fileExtensions: ["ts", "tsx"],
    tsConfig: "tsconfig.json",
    // Prisma's generated client has cycles of its own; it is not our code.
    excludeRegExp: [/^generated\//, /node_modules/],
    detectiveOptions: { ts: { skipTypeImports: !withTypes }, tsx: { skipTypeImports: !withTypes } },
  });
  // An import madge could not follow could hide a cycle; it is a broken import anyway.
  expect(res.warnings().skipped, "imports that resolve to no file").toEqual([]);
  return res.obj();
}

/** Strongly connected components with more than one member (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

// Test support (server/testing, *test-support.ts) starts whole servers: it may import any domain.
const isTestCode = (f: string) => /\.test\.tsx?$/.test(f) || f.startsWith("server/testing/") || /test-support\.ts$/.test(f);
/** "server/datasets/x.ts" → "server/datasets"; a file directly in server/ is its own node. */
const domainOf = (f: string) => (f.startsWith("server/") && f.split("/").length > 2 ? f.split("/").slice(0, 2).join("/") : f);

describe("imports", () => {
  it("no module of server/, contracts/ or worker/ imports itself through other modules at run time", { timeout: 120_000 }, async () => {
    const g = await importGraph(false);
    const graph = new Map(Object.entries(g).map(([f, deps]) => [f, new Set(deps)]));
    expect(Object.keys(g).length).toBeGreaterThan(200);
    expect(cycles(graph)).toEqual([]);
  });

  it("no two folders of server/ import each other, directly or through a third, types included", { timeout: 120_000 }, async () => {
    const g = await importGraph(true);
    const graph = new Map<string, Set<string>>();
    for (const [f, deps] of Object.entries(g)) {
      if (isTestCode(f)) continue;
      const from = domainOf(f);
      const edges = graph.get(from) ?? graph.set(from, new Set()).get(from)!;
      for (const d of deps) if (!isTestCode(d) && domainOf(d) !== from) edges.add(domainOf(d));
    }
    expect(cycles(graph)).toEqual([]);
  });

  it("the cycle finder names a cycle of folders and ignores a chain", () => {
    const g = (edges: [string, string][]) => {
      const m = new Map<string, Set<string>>();
      for (const [a, b] of edges) (m.get(a) ?? m.set(a, new Set()).get(a)!).add(b);
      return m;
    };
    expect(cycles(g([["a", "b"], ["b", "c"], ["c", "a"], ["c", "d"]]))).toEqual([["a", "b", "c"]]);
    expect(cycles(g([["a", "b"], ["b", "c"], ["a", "c"]]))).toEqual([]);
  });
});
