import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createChatService, parseFlowFixtures, type Flow } from "../chat";
import { JsonBytes, NOT_FOUND_PAGE, TextBody, type ServiceResponse } from "../service";
import { createCrmService, type CrmService } from "../crm/service";
import { parseFixtures, type ReadOnlyFixtures } from "../crm/fixtures";
import { CredentialStore, DEFAULT_ACCOUNT, PERMISSIONS } from "./credentials";
import { AfterWorkStatus, FaultInjector, isAfterWorkStatus, parseFaultSpec } from "./faults";
import { genericTemplate, type Mount, type MountedService } from "./mount";
import { StateFile } from "./persistence";
import { RateLimiter } from "./rateLimit";
import { RequestStats } from "./stats";

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** The account's API key; random unless given. */
  token?: string;
  /** Requests per second per account, for each service on its own; default 5, 0 turns the limit off. */
  rateLimit?: number;
  /** The CRM service's requests per second per account, instead of rateLimit. */
  crmRateLimit?: number;
  /** The chat service's requests per second per account, instead of rateLimit. */
  chatRateLimit?: number;
  /** e.g. "429=0.2,503=0.1,reset=0.05,lost=0.05,500=0.05,latency=50-200"; lost carries the request out, then drops the answer; 500, 502 and 504 carry it out, then answer so. */
  faults?: string;
  seed?: number;
  /** JSON file {flows, automations, campaigns}: chat flows known besides the built-in ones; read-only CRM data replacing the generated. */
  fixtures?: string;
  /** JSON file keeping the state across restarts. */
  data?: string;
  /** Contacts the account may hold; a bulk sync that would exceed it is refused. Default 100000. */
  contactLimit?: number;
  /** Delay before a bulk sync writes its rows, so an immediate read does not see them. Default 200 ms. */
  bulkImportDelayMs?: number;
  /** How long a chat flow execution runs, its contacts done evenly over it. Default 3000 ms. */
  executionDurationMs?: number;
  /** Whether the account's plan includes branding template editing; false refuses writes of the templates. Default true. */
  templateEditing?: boolean;
}

export interface RunningEmulator {
  crmUrl: string;
  chatUrl: string;
  apiToken: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const ADMIN_PREFIX = "/__emulator/";
const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const apiToken = options.token ?? randomBytes(20).toString("hex");
  const credentials = new CredentialStore(apiToken);
  // Each service limits an account on its own, as the real ones do: a busy CRM does not slow the chat service.
  const limiters = {
    crm: new RateLimiter(options.crmRateLimit ?? options.rateLimit ?? 5),
    chat: new RateLimiter(options.chatRateLimit ?? options.rateLimit ?? 5),
  };
  const faults = new FaultInjector();
  if (options.faults) faults.configure(parseFaultSpec(options.faults), options.seed ?? 0);
  const stats = new RequestStats();

  let stateFile: StateFile | undefined;
  const fixtures = options.fixtures ? loadFixtures(options.fixtures) : undefined;
  const crm: CrmService = createCrmService({
    can: (token, permission) => credentials.can(token, permission),
    fixtures: fixtures?.crm,
    contactLimit: options.contactLimit,
    bulkImportDelayMs: options.bulkImportDelayMs,
    templateEditing: options.templateEditing,
    onBackgroundChange: () => stateFile?.save(),
  });
  const chat: MountedService = createChatService({ flows: fixtures?.flows, executionDurationMs: options.executionDurationMs });
  const services = { crm, chat };
  const mounts: Mount[] = [
    {
      prefix: "/api/3",
      service: crm,
      limiter: limiters.crm,
      credentialFrom: (headers) => singleHeader(headers["api-token"]),
      forbiddenBody: () => ({ message: "Forbidden" }),
    },
    {
      prefix: "/chat",
      service: chat,
      limiter: limiters.chat,
      credentialFrom: (headers) => /^Token\s+(\S+)$/.exec(singleHeader(headers.authorization) ?? "")?.[1],
      // Django REST framework's wording, like the rest of the chat service's errors.
      forbiddenBody: (keySent) => ({ detail: keySent ? "Invalid token." : "Authentication credentials were not provided." }),
    },
  ];

  if (options.data) {
    stateFile = new StateFile(options.data, () => ({ crm: crm.snapshot(), chat: chat.snapshot() }));
    const saved = stateFile.load() as { crm?: unknown; chat?: unknown } | undefined;
    if (saved?.crm !== undefined) crm.restore(saved.crm);
    if (saved?.chat !== undefined) chat.restore(saved.chat);
  }

  /** The request counters and every rate window: a measurement after it starts as on a fresh emulator. */
  const resetCounters = (): void => {
    stats.reset();
    for (const limiter of Object.values(limiters)) limiter.reset();
  };

  const admin = (method: string, path: string, body: unknown): ServiceResponse => {
    const route = `${method} ${path}`;
    const fields = (body ?? {}) as Record<string, unknown>;
    switch (route) {
      case "GET /__emulator/stats":
        return { status: 200, body: stats.snapshot() };
      case "POST /__emulator/reset":
        for (const service of Object.values(services)) service.reset();
        resetCounters();
        stateFile?.save();
        return { status: 200, body: { reset: true } };
      case "POST /__emulator/reset-counters":
        resetCounters();
        return { status: 200, body: { reset: "counters" } };
      case "POST /__emulator/faults": {
        const spec = typeof fields.spec === "string" ? fields.spec : "";
        faults.configure(parseFaultSpec(spec), typeof fields.seed === "number" ? fields.seed : 0);
        return { status: 200, body: { spec, active: faults.active } };
      }
      case "POST /__emulator/tokens": {
        if (typeof fields.token !== "string" || fields.token === "") return adminError("token (string) is required");
        const permissions = fields.permissions ?? [...PERMISSIONS];
        if (!Array.isArray(permissions) || !permissions.every((p) => typeof p === "string")) {
          return adminError("permissions must be an array of strings");
        }
        const account = typeof fields.account === "string" ? fields.account : DEFAULT_ACCOUNT;
        credentials.add(fields.token, permissions, account);
        return { status: 201, body: { token: fields.token, permissions, account } };
      }
      case "POST /__emulator/limits": {
        if (typeof fields.contacts !== "number" || fields.contacts < 0) return adminError("contacts (number >= 0) is required");
        crm.setContactLimit(fields.contacts);
        return { status: 200, body: { contacts: fields.contacts } };
      }
      default:
        return { status: 404, body: { message: `No emulator admin route ${route}` } };
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", "http://emulator");
    const rawBody = await readBody(req);
    if (rawBody === undefined) return send(res, { status: 413, body: { message: "Request body too large" } });

    if (url.pathname.startsWith(ADMIN_PREFIX)) {
      let body: unknown;
      try {
        body = rawBody.length > 0 ? JSON.parse(rawBody.toString("utf8")) : undefined;
        return send(res, admin(method, url.pathname, body));
      } catch (error) {
        return send(res, adminError((error as Error).message));
      }
    }

    const mount = mounts.find((m) => url.pathname === m.prefix || url.pathname.startsWith(`${m.prefix}/`));
    if (!mount) {
      stats.record(`${method} (unknown)`, 404);
      return send(res, NOT_FOUND_PAGE);
    }
    const path = url.pathname.slice(mount.prefix.length) || "/";
    const template = mount.service.routeTemplate ? mount.service.routeTemplate(method, path) : genericTemplate(path);
    const route = `${method} ${mount.prefix}${template ?? "/(unknown)"}`;
    const finish = (response: ServiceResponse): void => {
      stats.record(route, response.status);
      send(res, response);
    };

    const token = mount.credentialFrom(req.headers);
    const credential = credentials.lookup(token);
    if (!token || !credential) return finish({ status: 403, body: mount.forbiddenBody(token !== undefined) });

    const { limiter } = mount;
    const retryAfter = limiter.admit(credential.account);
    // Every answer past the credential check carries the rate-limit headers of the account at this service.
    const finishLimited = (response: ServiceResponse): void => finish({ ...response, headers: { ...limiter.headers(credential.account), ...response.headers } });
    if (retryAfter > 0) return finishLimited(tooManyRequests(retryAfter));

    let lostAfterWork = false;
    let failAfterWork: { status: AfterWorkStatus; htmlBody: boolean } | undefined;
    if (faults.active) {
      const decision = faults.next();
      lostAfterWork = decision.outcome === "lost";
      if (isAfterWorkStatus(decision.outcome)) failAfterWork = { status: decision.outcome, htmlBody: decision.htmlBody === true };
      if (decision.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, decision.latencyMs));
      if (decision.outcome === "reset") {
        stats.record(route, "reset");
        req.socket.destroy();
        return;
      }
      if (decision.outcome === 429) return finishLimited(tooManyRequests(1));
      if (decision.outcome === 503) return finishLimited({ status: 503, body: { message: "Service Unavailable" } });
    }

    const response = await mount.service.handle({ method, path, query: url.searchParams, headers: req.headers, rawBody, token });
    if (MUTATING_METHODS.has(method) && response.status < 400) stateFile?.save();
    // The work is done but the answer never arrives: what a client cannot tell from a reset before it.
    if (lostAfterWork) {
      stats.record(route, "lost");
      req.socket.destroy();
      return;
    }
    // The work is done, then the service fails with an answer that does not say so.
    if (failAfterWork) {
      stats.record(route, failAfterWork.status);
      return sendServerError(res, failAfterWork.status, failAfterWork.htmlBody, limiter.headers(credential.account));
    }
    finishLimited(response);
  };

  const server = http.createServer({ keepAlive: true }, (req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) send(res, { status: 500, body: { message: `Emulator error: ${error.message}` } });
    });
  });
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    crmUrl: origin,
    chatUrl: `${origin}/chat`,
    apiToken,
    port,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive connections would hold close() open; nobody is mid-request in a clean shutdown.
      for (const socket of sockets) socket.destroy();
      await closed;
      crm.stopBackgroundWork();
      stateFile?.save();
    },
  };
}

function tooManyRequests(retryAfterSeconds: number): ServiceResponse {
  return {
    status: 429,
    headers: { "Retry-After": String(retryAfterSeconds) },
    body: { message: `Rate limit exceeded. Retry after ${retryAfterSeconds} second(s).` },
  };
}

/** A 5xx as a proxy or a crashed handler answers it: an HTML page, or nothing. */
function sendServerError(res: ServerResponse, status: number, htmlBody: boolean, headers: Record<string, string>): void {
  const title = `${status} ${http.STATUS_CODES[status]}`;
  const page = htmlBody ? `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>` : "";
  res.writeHead(status, { ...headers, ...(htmlBody && { "Content-Type": "text/html; charset=utf-8" }), "Content-Length": Buffer.byteLength(page) });
  res.end(page);
}

function adminError(message: string): ServiceResponse {
  return { status: 400, body: { message } };
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** One --fixtures file configures both services. */
function loadFixtures(path: string): { crm: ReadOnlyFixtures; flows?: Flow[] } {
  const text = readFileSync(path, "utf8");
  return { crm: parseFixtures(text, path), flows: parseFlowFixtures(text, path) };
}

/** The whole body, or undefined past MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

function send(res: ServerResponse, response: ServiceResponse): void {
  const { body } = response;
  const payload = body === undefined ? "" : body instanceof JsonBytes ? body.bytes : body instanceof TextBody ? body.text : JSON.stringify(body);
  const headers: Record<string, string | number> = { ...response.headers, "Content-Length": Buffer.byteLength(payload) };
  if (payload.length > 0) headers["Content-Type"] = body instanceof TextBody ? body.contentType : "application/json; charset=utf-8";
  res.writeHead(response.status, headers);
  res.end(payload);
}
