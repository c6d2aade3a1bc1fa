// Loopback addresses for tests of what cannot be reached.

import { createServer } from "node:net";

/** A loopback port nothing listens on: one the system gave and took back. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
