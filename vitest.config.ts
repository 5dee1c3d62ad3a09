import { defineConfig } from "vitest/config";
import path from "node:path";

// Two tiers: fast unit tests beside the code, and integration tests with real
// processes (worker, Python recipes, SQLite files, sshd). Integration test files run
// two at a time (scripts/test-all.sh passes --maxWorkers=2): each has its own data home,
// ports and worker, and one file alone left half of a 2-CPU machine idle while it waited
// on processes (measured: 3386 s one at a time, 1894 s two at a time, same 322 tests).
const alias = { "@": path.resolve(import.meta.dirname) };
export default defineConfig({
  test: {
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
