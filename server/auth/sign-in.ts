/**
 * One sign-in attempt: the per-address limiter first (the attempt counts before the
 * password is checked), then the password check through the concurrency gate. A correct
 * password resets the address's count; once the limit is reached even the correct
 * password waits for the window to pass (otherwise the limit would tell a guesser
 * nothing, but would also stop nothing).
 */
import type { Db } from "@/server/db/client";
import { GateFull } from "./concurrency-gate";
import { loginLimiter, passwordGate } from "./login-limiter";
import { ownerService } from "./owner.service";

export type SignInOutcome =
  | { kind: "signedIn"; secret: string; expiresAt: Date }
  | { kind: "wrongPassword" }
  | { kind: "noPassword" }
  | { kind: "limited"; retryAfterMs: number }
  | { kind: "busy"; retryAfterMs: number };

export interface SignInRequest {
  client: string;
  password: string;
  userAgent: string | null;
}

export async function signIn(req: SignInRequest, db?: Db): Promise<SignInOutcome> {
  const owner = ownerService(db);
  if (!(await owner.hasPassword())) return { kind: "noPassword" };
  const limiter = loginLimiter();
  const wait = limiter.take(req.client);
  if (wait > 0) return { kind: "limited", retryAfterMs: wait };
  let session: Awaited<ReturnType<typeof owner.login>>;
  try {
    session = await passwordGate().run(() => owner.login(req.password, { userAgent: req.userAgent }));
  } catch (err) {
    if (!(err instanceof GateFull)) throw err;
    // Never checked: it does not count against this address.
    limiter.refund(req.client);
    return { kind: "busy", retryAfterMs: 2000 };
  }
  if (!session) return { kind: "wrongPassword" };
  limiter.reset(req.client);
  return { kind: "signedIn", ...session };
}
