// Start a job's supervisor as a detached process: its own session and process group,
// stdio closed, unref'd — it outlives the control process and the controller.
// Called only after the admitted receipt is durable.
import { spawn } from "node:child_process";
import { bundleEntry } from "./config";
import type { Home } from "./home";
import { identityOf } from "./proc";
import { updateReceipt } from "./receipts";

export function launchSupervisor(home: Home, jobId: string, extraArgs: string[] = []): void {
  const child = spawn(process.execPath, [bundleEntry(), "supervise", "--home", home.root, "--job", jobId, ...extraArgs], {
    detached: true,
    stdio: "ignore",
    cwd: home.root,
  });
  child.on("error", () => {
    // Reported through reconcile: an admitted job whose supervisor never lived ends `failed`.
  });
  child.unref();
  if (extraArgs.length || !child.pid) return;
  const id = identityOf(child.pid);
  if (!id) return;
  // The supervisor writes its identity too; whichever lands first, both are the same process.
  updateReceipt(home, jobId, (r) => (r.supervisor ? null : { ...r, supervisor: id }));
}
