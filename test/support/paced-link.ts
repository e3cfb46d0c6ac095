// A link between the app and a real server that can be slowed: an HTTP proxy on loopback that passes
// requests through as they are, and holds each event of an answer for `delayMs` before passing it on.
// A test that must act while a real model streams (press Stop after its first words) sets a pace, so
// that a fast model on a quiet machine does not finish before the test can act. Each request is
// recorded with when the app's side of it closed, so a test can tell a Stop that let go of the answer
// from one that read it on to its end.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";

export interface LinkRequest {
  path: string;
  /** When the request arrived and when the app's connection for it closed (epoch ms, sub-ms precision). */
  received_ms: number;
  closed_ms?: number;
  /** The answer reached the app whole before the connection closed (false: the app went away first). */
  completed: boolean;
  /** The request's body as text (its first 256 KB): which prompt it carried. */
  body: string;
}

export interface PacedLink {
  /** e.g. "http://127.0.0.1:41234": the target's paths, through the link. */
  url: string;
  /** How long each event of a streamed answer is held (0: passed on at once). */
  delayMs: number;
  /** Every request passed on, oldest first. */
  requests: LinkRequest[];
  /**
   * The first request since `from` whose body holds `text`, once it has come. Not simply the next one
   * after `from`: an earlier conversation's title request can arrive in between.
   */
  carrying(text: string, from?: number): LinkRequest | undefined;
  close(): Promise<void>;
}

export async function pacedLink(target: string): Promise<PacedLink> {
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    const record: LinkRequest = { path: req.url ?? "/", received_ms: now(), completed: false, body: "" };
    link.requests.push(record);
    req.on("data", (chunk: Buffer) => {
      if (record.body.length < BODY_KEPT) record.body += chunk.toString("utf8");
    });
    const upstream = http.request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const paced = pacer(link);
        // Either side gone (a stop aborts the app's fetch, the server stopped): both ends are closed.
        pipeline(answer, paced, res).catch(() => undefined);
      },
    );
    upstream.on("error", () => res.destroy());
    res.on("close", () => {
      record.closed_ms = now();
      record.completed = res.writableFinished;
      upstream.destroy();
    });
    pipeline(req, upstream).catch(() => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const link: PacedLink = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    delayMs: 0,
    requests: [],
    carrying: (text, from = 0) => link.requests.slice(from).find((r) => r.body.includes(text)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return link;
}

/**
 * Holds each event of a streamed answer (SSE: up to a blank line) for the link's delay. Not each chunk
 * as it comes off the socket: a fast server's events pile up there, and one chunk could carry the rest
 * of the answer, finish and all, in a single step.
 */
function pacer(link: PacedLink): Transform {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      pending += decoder.write(chunk);
      const events = pending.split(/(?<=\r?\n\r?\n)/);
      pending = events.pop() ?? "";
      const pass = async () => {
        for (const event of events) {
          if (link.delayMs > 0) await new Promise((r) => setTimeout(r, link.delayMs));
          this.push(event);
        }
      };
      pass().then(() => done(), done);
    },
    flush(done) {
      done(null, pending + decoder.end());
    },
  });
}

const BODY_KEPT = 256 * 1024;

/** Epoch milliseconds with the monotonic clock's precision. */
const now = () => performance.timeOrigin + performance.now();
