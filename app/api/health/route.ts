import { getDb } from "@/server/db/client";
import { uptimeSeconds, VERSION } from "@/server/lifecycle/server-info";
import { guarded } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

async function get() {
  let database: { status: "ok" | "error"; message?: string };
  try {
    await getDb().$queryRawUnsafe("SELECT 1");
    database = { status: "ok" };
  } catch (err) {
    database = { status: "error", message: err instanceof Error ? err.message.split("\n")[0] : "unavailable" };
  }
  const body = { status: database.status === "ok" ? "ok" : "degraded", version: VERSION, database, uptimeSeconds: uptimeSeconds() };
  return Response.json(body, { status: database.status === "ok" ? 200 : 503 });
}

export const GET = guarded("read", get);
