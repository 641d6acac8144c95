// The control-store client (Prisma 7 with the node-postgres driver adapter). One per process.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";
import { readEnv } from "./env";

const globalForPrisma = globalThis as unknown as { __pgbbPrisma?: { url: string; client: PrismaClient } };

export function controlUrl(): string {
  const url = readEnv().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm start`, which provides it");
  return url;
}

/** The shared Prisma client for DATABASE_URL (re-created if the URL changes, e.g. between tests). */
export function prisma(url: string = controlUrl()): PrismaClient {
  const cached = globalForPrisma.__pgbbPrisma;
  if (cached && cached.url === url) return cached.client;
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 5 }) });
  globalForPrisma.__pgbbPrisma = { url, client };
  return client;
}

export type { PrismaClient };
