/**
 * The serving recipes (training/serving: serve-tabular, serve-llm): one resident job `serve`
 * whose input is the serving protocol's ZServeJobInput (contracts/deployments/serving.ts,
 * its one home). It writes no output files: it answers over its socket until stopped.
 */
import { ZServeJobInput } from "../deployments/serving";

const serve = { input: ZServeJobInput, outputs: {} } as const;

export const serveTabular = { serve } as const;
export const serveLlm = { serve } as const;
