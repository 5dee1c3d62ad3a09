import { defineConfig } from "prisma/config";

// Used by `prisma generate` only. The database URL is resolved at run time from
// TRAINYARD_HOME (server/config/env.ts); generate needs none.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
