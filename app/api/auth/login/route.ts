import { z } from "zod";
import { ownerService, SESSION_COOKIE } from "@/server/auth/owner.service";
import { loginLimiter } from "@/server/auth/login-limiter";
import { CLIENT_HEADER } from "@/server/http/request-guard";

export const dynamic = "force-dynamic";

const Body = z.object({ password: z.string().min(1).max(1000) });

export async function POST(req: Request) {
  const parsed = Body.safeParse(await req.json().catch(() => null));
  if (!parsed.success) return Response.json({ error: "Enter the owner password." }, { status: 400 });
  const client = req.headers.get(CLIENT_HEADER) ?? "unknown";
  const limiter = loginLimiter();
  const wait = limiter.retryAfterMs(client);
  if (wait > 0) {
    return Response.json(
      { error: `Too many failed sign-ins. Try again in ${Math.ceil(wait / 60_000)} minute(s).` },
      { status: 429, headers: { "retry-after": String(Math.ceil(wait / 1000)) } },
    );
  }
  const session = await ownerService().login(parsed.data.password);
  if (!session) {
    limiter.recordFailure(client);
    return Response.json({ error: "That is not the owner password." }, { status: 401 });
  }
  limiter.reset(client);
  const cookie = [
    `${SESSION_COOKIE}=${encodeURIComponent(session.secret)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    `Expires=${session.expiresAt.toUTCString()}`,
  ].join("; ");
  return Response.json({ ok: true }, { headers: { "set-cookie": cookie } });
}
