import { ownerService } from "@/server/auth/owner.service";
import { clearedSessionCookie, cookieSecure, SESSION_COOKIE } from "@/server/auth/session-cookie";
import { readCookie } from "@/server/http/request-guard";
import { guarded } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

async function post(req: Request) {
  const secret = readCookie(req.headers.get("cookie") ?? undefined, SESSION_COOKIE);
  if (secret) await ownerService().logout(secret);
  return Response.json({ ok: true }, { headers: { "set-cookie": clearedSessionCookie({ secure: cookieSecure() }) } });
}

// Only a signed-in caller can sign out (a stale cookie is answered 401 by the guard first).
export const POST = guarded("read", post);
