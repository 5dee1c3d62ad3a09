import { ownerService } from "@/server/auth/owner.service";
import { clearedSessionCookie, cookieSecure, SESSION_COOKIE } from "@/server/auth/session-cookie";
import { readCookie } from "@/server/http/request-guard";

export const dynamic = "force-dynamic";

export async function POST(req: Request) {
  const secret = readCookie(req.headers.get("cookie") ?? undefined, SESSION_COOKIE);
  if (secret) await ownerService().logout(secret);
  return Response.json({ ok: true }, { headers: { "set-cookie": clearedSessionCookie({ secure: cookieSecure() }) } });
}
