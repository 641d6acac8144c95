// Prisma CLI config. The CLI is only used for `prisma generate` here (see scripts/prisma-generate.mjs);
// migrations are plain SQL applied by platform/migrate.ts. env("DATABASE_URL") would throw when the variable
// is unset (the embedded default sets it at run time), so read process.env with a fallback.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/unused" },
});
