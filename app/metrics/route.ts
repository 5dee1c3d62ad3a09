// GET /metrics: Prometheus text. The request guard (server/http) applies the same access
// rule as the API before this runs.
import { renderMetrics } from "@/server/controller/metrics";
import { guarded } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

async function get() {
  const body = await renderMetrics();
  return new Response(body, { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" } });
}

export const GET = guarded("read", get);
