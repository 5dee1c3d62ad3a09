import { ownerService, SESSION_COOKIE } from "@/server/auth/owner.service";
import { readCookie } from "@/server/http/request-guard";

export const dynamic = "force-dynamic";

export async function POST(req: Request) {
  const secret = readCookie(req.headers.get("cookie") ?? undefined, SESSION_COOKIE);
  if (secret) await ownerService().logout(secret);
  return Response.json(
    { ok: true },
    { headers: { "set-cookie": `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0` } },
  );
}
