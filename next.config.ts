import type { NextConfig } from "next";

// `trainyard start` builds each source version into its own folder under .next-builds/
// (server/cli/ensure-built.ts) so that a rebuild never pulls files from under a server
// that is still running an older build. Plain `next dev` / `next build` use .next.
const distDir = process.env.TRAINYARD_DIST_DIR ?? ".next";

const nextConfig: NextConfig = {
  distDir,
  // Native or wasm-loading packages are loaded by Node at run time, not bundled.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "@prisma/schema-engine-wasm",
    "ssh2",
    "cpu-features",
  ],
  // Type checking is its own test tier (`npm run typecheck`), over the whole repo. Next
  // rewrites the tsconfig it is given, so it gets a generated one, not the repo's.
  typescript: {
    ignoreBuildErrors: true,
    tsconfigPath: process.env.TRAINYARD_DIST_DIR ? ".next-builds/tsconfig.json" : "tsconfig.json",
  },
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
