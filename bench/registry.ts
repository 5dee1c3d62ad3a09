/**
 * bench/registry: the registry's reads at its bounds — a model with 200 versions and 250
 * selection events (200 shown) — through the real server: `models.list`, `models.show`,
 * `models.history`, `models.retentionPreview` and one promotion, median of 20 calls each.
 *
 *   npx tsx bench/registry.ts
 *
 * Trains one quick penguins model (real recipes, environments shared through .tmp/envs),
 * registers it, then copies its version row to 200 (server/registry/bound-copies.ts) and
 * makes 250 real promotions.
 */
import os from "node:os";
import path from "node:path";
import { copyVersionUpTo } from "@/server/registry/bound-copies";
import { runCli } from "@/server/testing/cli-process";
import { makeTestHome, REPO, startTestServer } from "@/server/testing/server-harness";

const N = 20;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(what: string, call: () => Promise<unknown>): Promise<void> {
  const ms: number[] = [];
  for (let i = 0; i < N + 2; i++) {
    const t = process.hrtime.bigint();
    await call();
    if (i >= 2) ms.push(Number(process.hrtime.bigint() - t) / 1e6); // 2 warm-up calls
  }
  console.log(`| ${what} | ${median(ms).toFixed(1)} | ${Math.max(...ms).toFixed(1)} |`);
}

async function main() {
  const home = makeTestHome();
  const server = await startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") } });
  try {
    const trained = await runCli(server.url, ["train", "--data", path.join(REPO, "tests/fixtures/tabular/penguins.csv"), "--target", "species", "--max-minutes", "2", "--out", home.scratch, "--json"]).done;
    if (trained.code !== 0) throw new Error(trained.stderr);
    const experimentId = (JSON.parse(trained.stdout) as { experimentId: string }).experimentId;
    const reg = await server.client.models.register.mutate({ experimentId, newModelName: "Bench model" });
    const modelId = reg.model.id;
    copyVersionUpTo(path.join(home.home, "trainyard.db"), reg.version.id, 200);
    let revision = reg.model.revision;
    for (let i = 0; i < 250; i++) {
      revision = (await server.client.models.promote.mutate({ modelId, version: (i % 200) + 1, reason: `move ${i}`, acceptRegression: true, expectedRevision: revision })).model.revision;
    }
    const projectId = reg.model.projectId;
    console.log(`200 versions, 250 events (load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, ${os.cpus().length} CPUs)\n`);
    console.log("| call | median ms | max ms |\n|---|---|---|");
    await timed("models.list (1 model)", () => server.client.models.list.query({ projectId }));
    await timed("models.show (200 versions, 200 events)", () => server.client.models.show.query({ modelId }));
    await timed("models.history (200 of 250)", () => server.client.models.history.query({ modelId }));
    await timed("models.retentionPreview", () => server.client.models.retentionPreview.query({ projectId }));
    await timed("models.promotionPreview", () => server.client.models.promotionPreview.query({ modelId, version: 7 }));
    let k = 0;
    await timed("models.promote (verifies the export)", async () => {
      revision = (await server.client.models.promote.mutate({ modelId, version: (k++ % 2) + 1, reason: "bench", acceptRegression: true, expectedRevision: revision })).model.revision;
    });
  } finally {
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
