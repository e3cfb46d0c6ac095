// A minimal Chrome DevTools Protocol client for the Worker's isolate under `wrangler dev` (its
// --inspector-port): enough to force a garbage collection, read the heap and take a heap snapshot.
export interface Inspector {
  call<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** V8's used heap after a full garbage collection, in bytes. */
  heapAfterGc(): Promise<number>;
  /** A heap snapshot (V8's JSON), for finding what is retained. */
  snapshot(): Promise<string>;
  close(): void;
}

export async function connectInspector(port: number): Promise<Inspector> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target on port ${port}`);
  // The inspector proxy takes only a local Origin (Node's WebSocket sends none; headers go in its init).
  const ws = new WebSocket(url, { headers: { origin: "http://127.0.0.1" } } as unknown as string[]);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve(), { once: true });
    ws.addEventListener("error", () => reject(new Error(`inspector ${url} refused`)), { once: true });
  });
  let next = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const chunks: string[] = [];
  ws.addEventListener("message", (e) => {
    const message = JSON.parse(String(e.data)) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
      method?: string;
      params?: { chunk?: string };
    };
    if (message.method === "HeapProfiler.addHeapSnapshotChunk") chunks.push(message.params?.chunk ?? "");
    if (message.id === undefined) return;
    const waiter = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) waiter?.reject(new Error(message.error.message));
    else waiter?.resolve(message.result);
  });
  const call = <T>(method: string, params: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  const snapshot = async () => {
    chunks.length = 0;
    await call("HeapProfiler.enable");
    await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
    const json = chunks.join("");
    chunks.length = 0;
    return json;
  };
  return {
    call,
    async heapAfterGc() {
      // workerd does not answer HeapProfiler.collectGarbage; V8 collects fully before every snapshot.
      await snapshot();
      return (await call<{ usedSize: number }>("Runtime.getHeapUsage")).usedSize;
    },
    snapshot,
    close: () => ws.close(),
  };
}
