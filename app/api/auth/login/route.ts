import { z } from "zod";
import { signIn } from "@/server/auth/sign-in";
import { cookieSecure, sessionCookie } from "@/server/auth/session-cookie";
import { bodyErrorResponse, readJsonBody } from "@/server/http/json-body";
import { CLIENT_HEADER } from "@/server/http/request-guard";

export const dynamic = "force-dynamic";

const Body = z.object({ password: z.string().min(1).max(1000) }).strict();

const seconds = (ms: number) => String(Math.ceil(ms / 1000));

export async function POST(req: Request) {
  let raw: unknown;
  try {
    raw = await readJsonBody(req);
  } catch (err) {
    const answer = bodyErrorResponse(err);
    if (answer) return answer;
    throw err;
  }
  const parsed = Body.safeParse(raw);
  if (!parsed.success) return Response.json({ error: "Send the owner password as {\"password\": \"…\"}." }, { status: 400 });
  const outcome = await signIn({
    client: req.headers.get(CLIENT_HEADER) ?? "unknown",
    password: parsed.data.password,
    userAgent: req.headers.get("user-agent"),
  });
  switch (outcome.kind) {
    case "signedIn":
      return Response.json(
        { ok: true },
        { headers: { "set-cookie": sessionCookie(outcome.secret, outcome.expiresAt, { secure: cookieSecure() }) } },
      );
    case "wrongPassword":
      return Response.json({ error: "That is not the owner password." }, { status: 401 });
    case "noPassword":
      return Response.json(
        { error: "No owner password is set. Set one with: trainyard owner set-password" },
        { status: 409 },
      );
    case "limited":
      return Response.json(
        { error: `Too many sign-in attempts. Try again in ${Math.ceil(outcome.retryAfterMs / 60_000)} minute(s).` },
        { status: 429, headers: { "retry-after": seconds(outcome.retryAfterMs) } },
      );
    case "busy":
      return Response.json(
        { error: "The server is checking other sign-ins; try again in a few seconds." },
        { status: 503, headers: { "retry-after": seconds(outcome.retryAfterMs) } },
      );
  }
}
