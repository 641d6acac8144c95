import Link from "next/link";

export default function NotFound() {
  return (
    <section className="panel" data-testid="not-found">
      <h1>Not found</h1>
      <p className="muted">There is nothing at this address. A run that was deleted, or an id with a typo, ends up here.</p>
      <div className="row">
        <Link className="btn primary" href="/runs">
          All runs
        </Link>
        <Link className="btn" href="/runs/new">
          New run
        </Link>
      </div>
    </section>
  );
}
