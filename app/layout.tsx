import type { Metadata, Viewport } from "next";
import Link from "next/link";
import { Nav } from "@/components/Nav";
import { workloadDefinitions } from "@/lib/workloads/config";
import "./globals.css";

export const metadata: Metadata = {
  title: "pg-broker-bench: can Postgres be your broker?",
  // The workloads as the registry names them, so the description never lags behind what the product runs.
  description: `Run ${workloadDefinitions()
    .map((d) => d.title)
    .join(", ")} workloads against your Postgres, live, and compare with published results.`,
};
export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <div className="topbar-inner">
            <Link href="/" className="brand">
              pg-broker-bench <span>· can Postgres be your broker?</span>
            </Link>
            <Nav />
          </div>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
