// import: snapshot a file from an allowed root into the store as a supervised job, so a
// large file is copied under its own time limit with progress in events.jsonl, can be
// cancelled, and never runs inside (or past) the controller's control-call timeout.
// The path is checked here for a quick typed refusal and again by the supervisor on
// what it actually opens. Idempotent by opId (intent = the path). An import job holds
// no ledger reservation and is admitted ahead of the queue: it is disk I/O, and a
// training job holding every CPU must not keep a dataset from being registered.
import type { z } from "zod";
import type { ZImportRequest } from "../../../contracts/worker/requests";
import { startWhatFits } from "../ledger";
import { checkReadablePath } from "../paths";
import type { Ctx } from "./context";
import { createJob, existingForOp, withOpsLock } from "./createjob";
import { currentReceipt } from "./jobs";

export interface ImportInput {
  path: string;
}

export function importFile(ctx: Ctx, req: z.output<typeof ZImportRequest>) {
  const { cfg, home } = ctx;
  const intentHash = `import:${req.path}`;
  const out = withOpsLock(ctx, () => {
    const existing = existingForOp(ctx, req.opId, intentHash);
    if (existing?.receipt) return { jobId: existing.jobId, created: false };
    checkReadablePath(req.path, cfg.allowedRoots);
    const input: ImportInput = { path: req.path };
    const receipt = createJob(
      ctx,
      {
        opId: req.opId,
        intentHash,
        kind: "import",
        recipe: "import",
        job: "import",
        environmentId: "",
        priority: 0,
        resources: { cpus: 1, ramGb: 0 },
        deadlineSeconds: req.deadlineSeconds,
        graceSeconds: 0,
        input,
        inputRefs: [],
      },
      existing?.jobId,
    );
    return { jobId: receipt.jobId, created: true };
  });
  if (out.created) startWhatFits(home, cfg);
  return { receipt: currentReceipt(ctx, out.jobId), created: out.created };
}
