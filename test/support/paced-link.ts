// A link between the app and a real server that can be slowed: an HTTP proxy on loopback that passes
// requests through as they are, and holds each chunk of an answer for `delayMs` before passing it on.
// A test that must act while a real model streams (press Stop after its first words) sets a pace, so
// that a fast model on a quiet machine does not finish before the test can act.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

export interface PacedLink {
  /** e.g. "http://127.0.0.1:41234": the target's paths, through the link. */
  url: string;
  /** How long each chunk of an answer is held (0: passed on at once). */
  delayMs: number;
  close(): Promise<void>;
}

export async function pacedLink(target: string): Promise<PacedLink> {
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const paced = new Transform({
          transform(chunk, _encoding, done) {
            if (link.delayMs > 0) setTimeout(() => done(null, chunk), link.delayMs);
            else done(null, chunk);
          },
        });
        // Either side gone (a stop aborts the app's fetch, the server stopped): both ends are closed.
        pipeline(answer, paced, res).catch(() => undefined);
      },
    );
    upstream.on("error", () => res.destroy());
    res.on("close", () => upstream.destroy());
    pipeline(req, upstream).catch(() => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const link: PacedLink = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    delayMs: 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return link;
}
