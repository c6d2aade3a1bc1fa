// A loopback proxy in front of a service that records each request a client sends
// through it (method, path, query, JSON body), so a test can hold the requests to a
// reference document.

import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorForProvider, type RunningEmulator } from "../../scripts/harness/emulator";

export interface ProxiedRequest {
  method: string;
  /** Path below the proxy's root, without the query. */
  path: string;
  query: string;
  body: unknown;
}

/** The body of the create among these requests: a create may look for an identical object first (see provider/crm/service/recovery.ts). */
export function createBody(requests: readonly ProxiedRequest[]): unknown {
  return requests.find((request) => request.method === "POST")?.body;
}

export interface RecordingProxy {
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/** An answer the client gets instead of the service's. */
interface ReplacedAnswer {
  status: number;
  body: unknown;
}

/**
 * Called with each answer of the service before it is passed on (`answered` counts them,
 * this one included); true drops it, closing the client's connection: the request took
 * effect, and the client never learns of it. An answer returned is sent in its place.
 */
export type AnswerInterceptor = (answered: number, request: ProxiedRequest, status: number) => boolean | ReplacedAnswer;

/**
 * `forwardedUrl` is what the service is asked for a request's path and query: the same
 * by default, or a rewrite that plays a service ignoring a parameter.
 */
export async function startRecordingProxy(
  target: string,
  intercept: AnswerInterceptor = () => false,
  forwardedUrl: (url: string) => string = (url) => url,
): Promise<RecordingProxy> {
  const requests: ProxiedRequest[] = [];
  let answered = 0;
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? "/", "http://proxy");
      const proxied = { method: req.method ?? "", path: url.pathname, query: url.search, body: body.length ? JSON.parse(body.toString()) : undefined };
      requests.push(proxied);
      const forwarded = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: forwardedUrl(req.url ?? "/"),
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          const intercepted = intercept(++answered, proxied, answer.statusCode ?? 502);
          if (intercepted === true) {
            req.socket.destroy();
            return;
          }
          if (intercepted) {
            answer.resume();
            res.writeHead(intercepted.status, { "content-type": "application/json" });
            res.end(JSON.stringify(intercepted.body));
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      // The client gone (dropped answers close its connections), the upstream call may fail.
      forwarded.on("error", () => req.socket.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A provider test's emulator behind a recording proxy, the provider's settings
 * pointed at the proxy, with the emulator's and the provider's rate limits off to
 * keep the test fast.
 */
export async function emulatorBehindProxy(): Promise<{ emulator: RunningEmulator; proxy: RecordingProxy }> {
  const emulator = await emulatorForProvider();
  const proxy = await startRecordingProxy(emulator.crmUrl);
  useStackConfig(configOf({ "crm:apiUrl": proxy.url, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
  return { emulator, proxy };
}
