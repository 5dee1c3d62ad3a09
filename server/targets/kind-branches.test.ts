// Local and SSH differ only behind the Target (target.ts) and the target view: a branch on
// a computer's kind anywhere else is behaviour that belongs in server/targets.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["app", "components", "server", "contracts", "bin"];
const KIND_BRANCH = /\bkind\s*[!=]==?\s*["'](?:local|ssh)["']|["'](?:local|ssh)["']\s*[!=]==?\s*\w+\.kind\b|case\s+["'](?:local|ssh)["']\s*:/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name.startsWith(".") ? [] : sources(p);
    return /\.(ts|tsx|mjs)$/.test(e.name) ? [p] : [];
  });
}

function kindBranches(text: string): number[] {
  return text.split("\n").flatMap((line, i) => (KIND_BRANCH.test(line) ? [i + 1] : []));
}

describe("branches on a computer's kind", () => {
  it("live only in server/targets", () => {
    const found = ROOTS.flatMap(sources)
      .filter((f) => !f.startsWith(`server${path.sep}targets${path.sep}`))
      .flatMap((f) => kindBranches(readFileSync(f, "utf8")).map((line) => `${f}:${line}`));
    expect(found).toEqual([]);
  });

  it("are recognised in the forms the code used", () => {
    expect(kindBranches('if (t.kind === "local") return;\nx\n{t.kind !== \'ssh\' && y}\ncase "ssh":')).toEqual([1, 3, 4]);
    expect(kindBranches('if (p.kind === "token") return;\nkind: "local"')).toEqual([]);
  });
});
