/** The deployments router's outputs as the browser receives them. */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Out = inferRouterOutputs<AppRouter>["deployments"];
export type Deployment = Out["list"][number];
export type LatencySummary = Out["latency"][string];
/** One release of a deployment's history (deployments.show, newest first). */
export type Release = Out["show"]["releases"][number];
