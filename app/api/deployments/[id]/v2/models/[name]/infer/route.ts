/**
 * POST /api/deployments/<id>/v2/models/<name>/infer — the Open Inference Protocol v2
 * (KServe, Triton) for a tabular deployment whose name is <name>: one input tensor per
 * feature column in, `{"model_name", "model_version", "id"?, "outputs"}` out. Same
 * authorization, limits and counts as /predict; refusals are `{"error"}` with `fields`
 * (server/protocols/open-inference).
 */
import { getDb } from "@/server/db/client";
import { deploymentsService } from "@/server/deployments/deployments.service";
import { guardedDeployment } from "@/server/http/route-auth";
import { infer } from "@/server/protocols/open-inference/infer";

export const dynamic = "force-dynamic";

export function POST(req: Request, ctx: { params: Promise<{ id: string; name: string }> }) {
  return guardedDeployment("write", async (r, id) => infer(r, id, (await ctx.params).name, deploymentsService(getDb())))(req, ctx);
}
