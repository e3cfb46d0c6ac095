// The client's index.html as a page the Worker decides about (a share link's, the admin page): the SPA
// renders it either way, but a page that is not there for this visitor answers 404, is never cached and
// has no ETag (a 304 would skip the decision).
export async function indexPage(
  request: Request,
  env: Env,
  found: boolean,
  extra: Record<string, string> = {},
): Promise<Response> {
  // "/" is index.html (a request for /index.html itself would be redirected to /).
  const index = await env.ASSETS.fetch(new Request(new URL("/", request.url), { method: request.method }));
  const headers = new Headers(index.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  headers.set("Cache-Control", "no-store");
  headers.delete("ETag");
  return new Response(index.body, { status: found ? index.status : 404, headers });
}
