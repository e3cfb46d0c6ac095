// An import's answer. A client that asks for progress (`Accept: application/x-ndjson`) gets it as the
// work goes, a JSON line per conversation imported, then the summary (or what failed part-way); anyone
// else gets the summary as one JSON body at the end. What is refused before anything is written (a
// malformed archive) is an ordinary error answer either way: the stream starts only once the checks pass.
import type { Context } from "hono";
import { type ImportProgressLine, type ImportSummary, PROGRESS_TYPE } from "../../protocol";
import { ApiError } from "../errors";

/** Reports `done` of `total` conversations imported. */
export type Progress = (done: number, total: number) => void;

export function importAnswer(
  c: Context,
  work: (progress: Progress) => Promise<ImportSummary>,
): Response | Promise<Response> {
  if (!c.req.header("Accept")?.includes(PROGRESS_TYPE)) return work(() => {}).then((summary) => c.json(summary));
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  // A client gone away stops nothing: the import goes on to its end, unheard.
  const send = (line: ImportProgressLine) => writer.write(encoder.encode(`${JSON.stringify(line)}\n`)).catch(() => {});
  const done = work((done, total) => void send({ type: "progress", done, total }))
    .then((summary) => send({ type: "done", summary }))
    .catch((error: unknown) => {
      if (!(error instanceof ApiError)) console.error("account import failed part-way", error);
      const known = error instanceof ApiError;
      const message = known ? error.message : "Something went wrong on our side";
      return send({ type: "error", error: { code: known ? error.code : "internal", message } });
    })
    .finally(() => writer.close().catch(() => {}));
  try {
    c.executionCtx.waitUntil(done);
  } catch {
    // No execution context (a unit test's app.request): the promise still runs.
  }
  return new Response(readable, { headers: { "Content-Type": PROGRESS_TYPE, "Cache-Control": "no-store" } });
}
