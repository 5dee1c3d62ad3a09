import { defineConfig } from "vitest/config";
import path from "node:path";

// Two tiers: fast unit tests beside the code, and integration tests with real
// processes (worker, Python recipes, SQLite files, sshd). Integration tests run
// one file at a time: they start real processes and this machine has 2 cores.
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
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
