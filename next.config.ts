import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native or wasm-loading packages are loaded by Node at run time, not bundled.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "@prisma/schema-engine-wasm",
    "ssh2",
    "cpu-features",
  ],
  // Type checking is its own test tier (`npm run typecheck`), over the whole repo.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};

export default nextConfig;
