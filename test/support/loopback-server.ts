// A test server of this process listening on a free loopback port, and how to close it with every
// connection it holds (a hanging SSE stream included), for the fake servers the tests start.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export async function listenOnLoopback(http: Server): Promise<{ origin: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
