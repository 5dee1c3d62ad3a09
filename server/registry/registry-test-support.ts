/** What the registry integration tests share: a refusal read as its tRPC code and precise reason. */
import { TRPCClientError } from "@trpc/client";

/** What the server refused with: the tRPC code and the precise reason in details.code. */
export async function refusal(p: Promise<unknown>): Promise<{ code: string; reason: string | undefined; message: string; details: Record<string, unknown> | null }> {
  try {
    await p;
  } catch (err) {
    if (!(err instanceof TRPCClientError)) throw err;
    const data = err.data as { code: string; details: Record<string, unknown> | null };
    return { code: data.code, reason: data.details?.code as string | undefined, message: err.message, details: data.details };
  }
  throw new Error("expected a refusal, got an answer");
}
