import { router, createCallerFactory } from "./trpc";
import { projectsRouter } from "./routers/projects.router";

export const appRouter = router({
  projects: projectsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
