/**
 * The experiment page through a server restart: the server is killed (-9) while the
 * model trains and started again on the same address; the open page reconnects by
 * itself and shows the experiment finish. This spec runs its own server (the shared
 * one cannot be restarted from a test).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { REPO, startServer, tempHome, type ServerProcess } from "../tests/support/server-process";

const ENVS = process.env.TRAINYARD_TEST_ENVS_DIR ?? path.join(REPO, ".tmp", "envs");

async function trpc<T>(url: string, proc: string, input: unknown, mutation = true): Promise<T> {
  const res = mutation
    ? await fetch(`${url}/api/trpc/${proc}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ json: input }) })
    : await fetch(`${url}/api/trpc/${proc}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
  const body = (await res.json()) as { result?: { data: { json: T } }; error?: unknown };
  if (!body.result) throw new Error(`${proc} failed: ${JSON.stringify(body.error)}`);
  return body.result.data.json;
}

async function until<T>(what: string, read: () => Promise<T | undefined>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

test.describe.configure({ timeout: 600_000 });

test("the experiment page recovers from a server restart and shows the job finish", async ({ page }) => {
  const home = tempHome("trainyard-e2e-restart-");
  const env = { TRAINYARD_ENVS_DIR: ENVS };
  let server: ServerProcess = await startServer({ home, env });
  try {
    const project = await trpc<{ id: string }>(server.url, "projects.create", { name: "Restart" });
    const upload = await fetch(`${server.url}/api/datasets/upload?projectId=${project.id}&fileName=penguins.csv`, {
      method: "POST",
      body: readFileSync(path.join(REPO, "tests/fixtures/tabular/penguins.csv")),
    });
    const { datasetId } = (await upload.json()) as { datasetId: string };
    await until("the profile", async () => {
      const d = await trpc<{ status: string }>(server.url, "datasets.get", { id: datasetId }, false);
      return d.status === "ready" ? d : undefined;
    }, 300_000);
    const exp = await trpc<{ id: string }>(server.url, "experiments.start", {
      opId: `restart-${Date.now()}`,
      projectId: project.id,
      datasetId,
      settings: { target: "species", task: "multiclass", metric: "accuracy", maxMinutes: 4 },
    });
    await page.goto(`${server.url}/projects/${project.id}/ml/experiments/${exp.id}`);
    const status = page.getByTestId("experiment-status");
    await expect(status).toContainText("Training models", { timeout: 300_000 });

    const port = server.port;
    await server.stop("SIGKILL");
    server = await startServer({ home, port, env });
    // No reload: the page reconnects to the live events and refetches.
    await expect(status).toContainText("Succeeded", { timeout: 300_000 });
    await expect(page.getByText("Better than baseline").first()).toBeVisible();
  } finally {
    await server.stop();
  }
});
