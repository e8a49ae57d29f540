/** An address the dashboard has no page for (the server answered it with 404 too). */
export function NotFoundPage({ path }: { path: string }) {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{path}</code>. The address may be mistyped, or what it showed was deleted.
      </p>
      <p>
        <a href="/buildings">Go to the buildings</a>
      </p>
    </section>
  );
}
