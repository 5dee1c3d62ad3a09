import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import path from "node:path";

// Two tiers: fast unit tests beside the code, and integration tests with real
// processes (worker, Python recipes, SQLite files, sshd). Integration test files run
// two at a time (scripts/test-all.sh passes --maxWorkers=2): each has its own data home,
// ports and worker, and one file alone left half of a 2-CPU machine idle while it waited
// on processes (measured: 3386 s one at a time, 1894 s two at a time, same 322 tests).
/**
 * Integration files run two at a time; a long file that starts last runs alone at the end
 * while the other worker idles (the SmolLM2 test, 7 minutes, is a small file, and Vitest
 * orders files it has no timings for by size). A clean clone has no timings, so the
 * measured seconds per file are kept in integration-seconds.json (from the Vitest output of
 * a full run, files of 30 s or more: scripts/integration-seconds.mjs) and those files start first, slowest first; the rest
 * follow in Vitest's own order. A stale table only costs balance, never a test.
 */
const SECONDS = JSON.parse(readFileSync(path.join(import.meta.dirname, "tests/support/integration-seconds.json"), "utf8")) as Record<string, number>;

class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const seconds = (f: TestSpecification) => SECONDS[path.relative(this.ctx.config.root, f.moduleId)] ?? 0;
    return base.map((f, i) => ({ f, i })).sort((a, b) => seconds(b.f) - seconds(a.f) || a.i - b.i).map(({ f }) => f);
  }
}

const alias = { "@": path.resolve(import.meta.dirname) };
export default defineConfig({
  test: {
    // Vitest 4 reads the sequencer from the root config only: set inside the integration
    // project it was never called, and a clean clone ran the files in Vitest's own order.
    // Unit files have no timings and keep that order.
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["**/*.test.ts"],
          exclude: ["**/*.integration.test.ts", "node_modules/**", "e2e/**", ".next/**", "dist/**", ".tmp/**"],
          environment: "node",
          // A migrated SQLite file per test file (openTestDb) took over 10 s on a loaded 2-CPU machine.
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["**/*.integration.test.ts"],
          exclude: ["node_modules/**", "e2e/**", ".next/**", "dist/**", ".tmp/**"],
          environment: "node",
          fileParallelism: true,
          testTimeout: 180_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
