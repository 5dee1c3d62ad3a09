import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// One throw-away data home and port per run; workers inherit them from the main process.
process.env.TRAINYARD_E2E_HOME ??= mkdtempSync(path.join(os.tmpdir(), "trainyard-e2e-"));
process.env.TRAINYARD_E2E_PORT ??= String(3900 + Math.floor(Math.random() * 90));
const port = Number(process.env.TRAINYARD_E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["json", { outputFile: process.env.TRAINYARD_E2E_REPORT ?? "test-results/e2e-report.json" }]],
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: chromium,
  },
  projects: [
    {
      name: "desktop",
      use: { viewport: { width: 1280, height: 800 } },
      // Approving a waiting version is checked where it is meant to be done, on a phone; the
      // same card on a desktop is registry.spec.ts's.
      testIgnore: /policy-approval\.spec\.ts/,
    },
    {
      name: "phone",
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
      // One server restart and one SSH enrollment are enough: both projects share one server.
      // The phone layouts of those pages are covered by the journey and servers.spec.ts.
      // The registry, its refusals, deployments and a finished run's verdict page are the
      // same logic at every width, and each trains for a minute or more; on a phone the
      // journey (status, verdict, Cancel) and the fine-tune run are what is checked (a
      // search's page is checked at a phone's width inside searches.spec.ts). The
      // suite must stay well inside CI's 90-minute limit on a 2-CPU machine.
      testIgnore: /(restart|servers-ssh|registry|registry-refusals|deployments|finished-run|searches)\.spec\.ts/,
    },
  ],
  webServer: {
    command: "node bin/trainyard.mjs start",
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 300_000,
    env: {
      TRAINYARD_HOME: process.env.TRAINYARD_E2E_HOME,
      TRAINYARD_PORT: String(port),
      NEXT_TELEMETRY_DISABLED: "1",
      // Recipe environments (AutoGluon takes minutes to build) are shared with the other test tiers.
      TRAINYARD_ENVS_DIR: process.env.TRAINYARD_TEST_ENVS_DIR ?? path.resolve(".tmp", "envs"),
    },
  },
});
