import { router, createCallerFactory } from "./trpc";
import { projectsRouter } from "./routers/projects.router";
import { jobsRouter } from "./routers/jobs.router";
import { targetsRouter } from "./routers/targets.router";
import { experimentsRouter } from "./routers/experiments.router";

export const appRouter = router({
  projects: projectsRouter,
  jobs: jobsRouter,
  targets: targetsRouter,
  experiments: experimentsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
