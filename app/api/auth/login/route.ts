import { z } from "zod";
import { signIn } from "@/server/auth/sign-in";
import { cookieSecure, sessionCookie } from "@/server/auth/session-cookie";
import { badInput, conflict, DomainError } from "@/server/errors";
import { errorResponse } from "@/server/http/error-response";
import { bodyErrorResponse, readJsonBody } from "@/server/http/json-body";
import { CLIENT_HEADER } from "@/server/http/request-guard";

export const dynamic = "force-dynamic";

const Body = z.object({ password: z.string().min(1).max(1000) }).strict();

const SIGNING_IN = "Signing in";

function retryAfter(res: Response, ms: number): Response {
  res.headers.set("retry-after", String(Math.ceil(ms / 1000)));
  return res;
}

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
  if (!parsed.success) return errorResponse(badInput("Send the owner password as {\"password\": \"…\"}.", { code: "password_missing" }), SIGNING_IN);
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
      return errorResponse(new DomainError("UNAUTHORIZED", "That is not the owner password.", { code: "wrong_password" }), SIGNING_IN);
    case "noPassword":
      return errorResponse(conflict("No owner password is set. Set one with: trainyard owner set-password", { code: "no_owner_password" }), SIGNING_IN);
    case "limited":
      return retryAfter(
        errorResponse(new DomainError("TOO_MANY_REQUESTS", `Too many sign-in attempts. Try again in ${Math.ceil(outcome.retryAfterMs / 60_000)} minute(s).`, { code: "too_many_attempts" }), SIGNING_IN),
        outcome.retryAfterMs,
      );
    case "busy":
      return retryAfter(
        errorResponse(new DomainError("UNAVAILABLE", "The server is checking other sign-ins; try again in a few seconds.", { code: "busy" }), SIGNING_IN),
        outcome.retryAfterMs,
      );
  }
}
