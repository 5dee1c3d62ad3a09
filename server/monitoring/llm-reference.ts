/**
 * What a monitor watches of a language model's requests: the four descriptors the request
 * path hands it for each answered generation (serve-generate.ts), never its prompt or text. Their bins are fixed (powers of two of tokens, a
 * tokens/s scale, the finish reasons); their reference counts are a window of real traffic:
 * the first closed window with enough rows, or one the owner accepts later.
 */
import type { Reference } from "@/contracts/recipes/data";

const zeros = (n: number) => Array.from({ length: n }, () => 0);
const numeric = (name: string, edges: number[]) => ({ name, kind: "numeric" as const, edges, counts: zeros(edges.length + 2) });

/** The bins, with no counts yet. */
export function llmReferenceTemplate(): Reference {
  return {
    version: 1,
    partition: "train",
    rows: 0,
    columns: [
      numeric("promptTokens", [8, 16, 32, 64, 128, 256, 512, 1024, 2048]),
      numeric("generatedTokens", [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]),
      numeric("tokensPerSecond", [1, 2, 5, 10, 20, 50, 100, 200]),
      { name: "finishReason", kind: "categorical", categories: ["stop", "length", "deadline"], counts: zeros(5) },
    ],
  };
}
