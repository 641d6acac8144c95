"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/runs", label: "Runs" },
  { href: "/runs/new", label: "New run" },
  { href: "/ceilings", label: "Ceilings" },
  { href: "/compare", label: "Compare" },
  { href: "/references", label: "References" },
];

export function Nav() {
  const path = usePathname() ?? "/";
  // The longest matching prefix is current, so /runs/new highlights "New run", not "Runs".
  const current = LINKS.filter((l) => path === l.href || path.startsWith(`${l.href}/`)).sort((a, b) => b.href.length - a.href.length)[0];
  return (
    <nav className="nav" aria-label="Main">
      {LINKS.map((l) => (
        <Link key={l.href} href={l.href} aria-current={current?.href === l.href ? "page" : undefined}>
          {l.label}
        </Link>
      ))}
    </nav>
  );
}
