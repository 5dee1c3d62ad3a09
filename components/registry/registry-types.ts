/** The registry's shapes as the browser receives them (the models router's outputs). */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Out = inferRouterOutputs<AppRouter>["models"];
export type ModelSummary = Out["list"][number];
export type ModelDetail = Out["show"];
export type Version = ModelDetail["versions"][number];
export type AliasEvent = ModelDetail["history"][number];
export type Preview = Out["promotionPreview"];
export type Decision = Preview["decision"];
export type Comparison = Out["compare"];
export type Retention = Out["retentionPreview"];
export type RegistrySettingsView = Out["settings"];
