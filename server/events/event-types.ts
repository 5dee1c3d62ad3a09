/**
 * Typed live events. A topic names what changed ("project:<id>", "experiment:<id>",
 * "job:<id>", "search:<id>", "deployment:<id>", "model:<id>", "monitor:<id>", "schedule:<id>", "notifications", or "projects" for the list);
 * pages subscribe to topics and refetch.
 */
import { z } from "zod";

export const LiveEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("project.changed"), projectId: z.string() }),
  z.object({ type: z.literal("job.changed"), jobId: z.string(), state: z.string(), experimentId: z.string().nullable().optional() }),
  z.object({ type: z.literal("job.log"), jobId: z.string(), bytes: z.number() }),
  z.object({ type: z.literal("experiment.changed"), experimentId: z.string(), projectId: z.string(), status: z.string() }),
  z.object({ type: z.literal("target.changed"), targetId: z.string() }),
  z.object({ type: z.literal("dataset.changed"), datasetId: z.string(), projectId: z.string().nullable().optional() }),
  z.object({ type: z.literal("search.changed"), searchId: z.string(), projectId: z.string() }),
  z.object({ type: z.literal("deployment.changed"), deploymentId: z.string(), projectId: z.string(), state: z.string() }),
  z.object({ type: z.literal("model.changed"), modelId: z.string(), projectId: z.string() }),
  z.object({ type: z.literal("monitor.changed"), monitorId: z.string(), deploymentId: z.string(), projectId: z.string() }),
  z.object({ type: z.literal("schedule.changed"), scheduleId: z.string(), projectId: z.string() }),
  z.object({ type: z.literal("notification.changed"), notificationId: z.string() }),
]);
export type LiveEvent = z.infer<typeof LiveEvent>;

export interface Envelope {
  id: number;
  topics: string[];
  event: LiveEvent;
  at: string;
}

export function topicsOf(event: LiveEvent): string[] {
  switch (event.type) {
    case "project.changed":
      return ["projects", `project:${event.projectId}`];
    case "job.changed":
    case "job.log":
      return ["jobs", `job:${event.jobId}`, ...("experimentId" in event && event.experimentId ? [`experiment:${event.experimentId}`] : [])];
    case "experiment.changed":
      return [`experiment:${event.experimentId}`, `project:${event.projectId}`];
    case "target.changed":
      return ["targets", `target:${event.targetId}`];
    case "dataset.changed":
      return ["datasets", ...(event.projectId ? [`project:${event.projectId}`] : [])];
    case "search.changed":
      return ["searches", `search:${event.searchId}`, `project:${event.projectId}`];
    case "deployment.changed":
      return ["deployments", `deployment:${event.deploymentId}`, `project:${event.projectId}`];
    case "model.changed":
      return ["models", `model:${event.modelId}`, `project:${event.projectId}`];
    case "monitor.changed":
      return [`monitor:${event.monitorId}`, `deployment:${event.deploymentId}`, `project:${event.projectId}`];
    case "schedule.changed":
      return ["schedules", `schedule:${event.scheduleId}`, `project:${event.projectId}`];
    case "notification.changed":
      return ["notifications"];
    default: {
      const never: never = event;
      return never;
    }
  }
}
