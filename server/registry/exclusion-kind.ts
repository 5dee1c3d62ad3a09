/** What a version's exclusion evidence lists hashes of (exclusion-evidence.ts): a tabular split's rows, or a fine-tune's prompts. */
import { z } from "zod";

export const ZExclusionKind = z.enum(["rows", "prompts"]);
export type ExclusionKind = z.infer<typeof ZExclusionKind>;
