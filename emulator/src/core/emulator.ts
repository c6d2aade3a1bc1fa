import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createChatService, parseFlowFixtures, type Flow } from "../chat";
import { JsonBytes, NOT_FOUND_PAGE, TextBody, type ServiceResponse } from "../service";
import { createCrmService, type CrmService } from "../crm/service";
import { parseFixtures, type ReadOnlyFixtures } from "../crm/fixtures";
import { CredentialStore, DEFAULT_ACCOUNT, PERMISSIONS } from "../shared/credentials";
import { type AfterWorkStatus, FaultInjector, isAfterWorkStatus, parseFaultSpec } from "./faults";
import type { MountedService } from "../service";
import { genericTemplate, type Mount } from "./mount";
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
  /**
   * Whether a bulk import with a row lacking a valid email is refused whole, 400 with the row's
   * failureReason, as the reference shows the real service doing; default false: the row is
   * skipped and reported by GET /import/info, as the seed says.
   */
  bulkImportRefusesInvalidEmails?: boolean;
  /** How long a chat flow execution runs, its contacts done evenly over it. Default 3000 ms. */
  executionDurationMs?: number;
  /** Whether the account's plan includes branding template editing; false refuses writes of the templates. Default true. */
  templateEditing?: boolean;
  /**
   * Named accounts served besides the default one, each below /acct/<name> with its own data, key
   * (random unless given) and rate limits: a fleet of client accounts from one process.
   */
  accounts?: Array<{ name: string; token?: string }>;
}

/** Where one account is served, and its key. */
export interface AccountAddress {
  crmUrl: string;
  chatUrl: string;
  apiToken: string;
}

export interface RunningEmulator extends AccountAddress {
  port: number;
  /** The named accounts, each served below /acct/<name> with its own data, key and rate limits. */
  accounts: Record<string, AccountAddress>;
  /** Opens account `name` (its key random unless given), or returns it if it is open already with that key. */
  addAccount(name: string, token?: string): AccountAddress;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const ADMIN_PREFIX = "/__emulator/";
const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** A named account's root: /acct/<name>, the name as a host name's label (the real service gives each account its own host). */
const ACCOUNT_PATH = /^\/acct\/([^/]*)(\/.*)?$/;
const ACCOUNT_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A named account in the --data file: its key, so that a restart keeps the keys its users hold. */
interface SavedAccount {
  apiToken: string;
  crm: unknown;
  chat: unknown;
}

/**
 * One account: its CRM and chat data, its keys, each service's rate limit, its injected faults and
 * its request counters. The default account is served at the server's root, each named one below
 * /acct/<name>, with the same routes (the admin routes included).
 */
class AccountSite {
  readonly credentials: CredentialStore;
  readonly limiters: { crm: RateLimiter; chat: RateLimiter };
  readonly faults = new FaultInjector();
  readonly stats = new RequestStats();
  readonly crm: CrmService;
  readonly chat: MountedService;
  readonly mounts: Mount[];

  constructor(
    /** "" for the default account, "/acct/<name>" for a named one. */
    readonly path: string,
    readonly apiToken: string,
    options: EmulatorOptions,
    fixtures: { crm: ReadOnlyFixtures; flows?: Flow[] } | undefined,
    onBackgroundChange: () => void,
  ) {
    this.credentials = new CredentialStore(apiToken);
    // Each service limits an account on its own, as the real ones do: a busy CRM does not slow the chat service.
    this.limiters = {
      crm: new RateLimiter(options.crmRateLimit ?? options.rateLimit ?? 5),
      chat: new RateLimiter(options.chatRateLimit ?? options.rateLimit ?? 5),
    };
    if (options.faults) this.faults.configure(parseFaultSpec(options.faults), options.seed ?? 0);
    this.crm = createCrmService({
      can: (token, permission) => this.credentials.can(token, permission),
      fixtures: fixtures?.crm,
      contactLimit: options.contactLimit,
      bulkImportDelayMs: options.bulkImportDelayMs,
      bulkImportRefusesInvalidEmails: options.bulkImportRefusesInvalidEmails,
      templateEditing: options.templateEditing,
      onBackgroundChange,
    });
    this.chat = createChatService({ flows: fixtures?.flows, executionDurationMs: options.executionDurationMs });
    this.mounts = [
      {
        prefix: "/api/3",
        service: this.crm,
        limiter: this.limiters.crm,
        credentialFrom: (headers) => singleHeader(headers["api-token"]),
        forbiddenBody: () => ({ message: "Forbidden" }),
      },
      {
        prefix: "/chat",
        service: this.chat,
        limiter: this.limiters.chat,
        credentialFrom: (headers) => /^Token\s+(\S+)$/.exec(singleHeader(headers.authorization) ?? "")?.[1],
        // Django REST framework's wording, like the rest of the chat service's errors.
        forbiddenBody: (keySent) => ({ detail: keySent ? "Invalid token." : "Authentication credentials were not provided." }),
      },
    ];
  }

  address(origin: string): AccountAddress {
    return { crmUrl: `${origin}${this.path}`, chatUrl: `${origin}${this.path}/chat`, apiToken: this.apiToken };
  }

  /** The request counters and every rate window: a measurement after it starts as on a fresh emulator. */
  resetCounters(): void {
    this.stats.reset();
    for (const limiter of Object.values(this.limiters)) limiter.reset();
  }

  reset(): void {
    this.crm.reset();
    this.chat.reset();
    this.resetCounters();
  }

  snapshot(): { crm: unknown; chat: unknown } {
    return { crm: this.crm.snapshot(), chat: this.chat.snapshot() };
  }

  restore(saved: { crm?: unknown; chat?: unknown }): void {
    if (saved.crm !== undefined) this.crm.restore(saved.crm);
    if (saved.chat !== undefined) this.chat.restore(saved.chat);
  }

  /** The admin routes every account has; `save` writes the --data file. */
  admin(route: string, fields: Record<string, unknown>, save: () => void): ServiceResponse | undefined {
    switch (route) {
      case "GET /__emulator/stats":
        return { status: 200, body: this.stats.snapshot() };
      case "POST /__emulator/reset":
        this.reset();
        save();
        return { status: 200, body: { reset: true } };
      case "POST /__emulator/reset-counters":
        this.resetCounters();
        return { status: 200, body: { reset: "counters" } };
      case "POST /__emulator/faults": {
        const spec = typeof fields.spec === "string" ? fields.spec : "";
        this.faults.configure(parseFaultSpec(spec), typeof fields.seed === "number" ? fields.seed : 0);
        return { status: 200, body: { spec, active: this.faults.active } };
      }
      case "POST /__emulator/tokens": {
        if (typeof fields.token !== "string" || fields.token === "") return adminError("token (string) is required");
        const permissions = fields.permissions ?? [...PERMISSIONS];
        if (!Array.isArray(permissions) || !permissions.every((p) => typeof p === "string")) {
          return adminError("permissions must be an array of strings");
        }
        const account = typeof fields.account === "string" ? fields.account : DEFAULT_ACCOUNT;
        this.credentials.add(fields.token, permissions, account);
        return { status: 201, body: { token: fields.token, permissions, account } };
      }
      case "POST /__emulator/limits": {
        if (typeof fields.contacts !== "number" || fields.contacts < 0) return adminError("contacts (number >= 0) is required");
        this.crm.setContactLimit(fields.contacts);
        return { status: 200, body: { contacts: fields.contacts } };
      }
      default:
        return undefined;
    }
  }

  /** A request to one of this account's services, `path` below the account's root; `save` writes the --data file. */
  async serve(req: IncomingMessage, res: ServerResponse, method: string, url: URL, path: string, rawBody: Buffer, save: () => void): Promise<void> {
    const { stats, faults } = this;
    const mount = this.mounts.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
    if (!mount) {
      stats.record(`${method} (unknown)`, 404);
      return send(res, NOT_FOUND_PAGE);
    }
    const servicePath = path.slice(mount.prefix.length) || "/";
    const template = mount.service.routeTemplate ? mount.service.routeTemplate(method, servicePath) : genericTemplate(servicePath);
    const route = `${method} ${mount.prefix}${template ?? "/(unknown)"}`;
    const finish = (response: ServiceResponse): void => {
      stats.record(route, response.status);
      send(res, response);
    };

    const token = mount.credentialFrom(req.headers);
    const credential = this.credentials.lookup(token);
    if (!token || !credential) return finish({ status: 403, body: mount.forbiddenBody(token !== undefined) });

    const { limiter } = mount;
    const retryAfter = limiter.admit(credential.account);
    // Every answer past the credential check carries the rate-limit headers of the account at this service.
    const finishLimited = (response: ServiceResponse): void =>
      finish({ ...response, headers: { ...limiter.headers(credential.account), ...response.headers } });
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

    const response = await mount.service.handle({
      method,
      path: servicePath,
      query: url.searchParams,
      headers: req.headers,
      rawBody,
      token,
      accountPath: this.path,
    });
    if (MUTATING_METHODS.has(method) && response.status < 400) save();
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
  }
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  let stateFile: StateFile | undefined;
  const save = (): void => stateFile?.save();
  const fixtures = options.fixtures ? loadFixtures(options.fixtures) : undefined;
  const root = new AccountSite("", options.token ?? randomBytes(20).toString("hex"), options, fixtures, save);
  const named = new Map<string, AccountSite>();
  let origin = "";

  const openAccount = (name: string, token?: string): AccountSite => {
    if (!ACCOUNT_NAME.test(name))
      throw new Error(`account name "${name}" must be lowercase letters, digits and inner hyphens, at most 63 characters, as a host name's label`);
    const open = named.get(name);
    if (open) {
      if (token !== undefined && token !== open.apiToken) throw new Error(`account "${name}" is open already with another key`);
      return open;
    }
    const site = new AccountSite(`/acct/${name}`, token ?? randomBytes(20).toString("hex"), options, fixtures, save);
    named.set(name, site);
    return site;
  };

  if (options.data) {
    stateFile = new StateFile(options.data, () => ({
      ...root.snapshot(),
      accounts: Object.fromEntries([...named].map(([name, site]): [string, SavedAccount] => [name, { apiToken: site.apiToken, ...site.snapshot() }])),
    }));
    const saved = stateFile.load() as { crm?: unknown; chat?: unknown; accounts?: Record<string, SavedAccount> } | undefined;
    if (saved) root.restore(saved);
    for (const [name, account] of Object.entries(saved?.accounts ?? {})) openAccount(name, account.apiToken).restore(account);
  }
  for (const account of options.accounts ?? []) openAccount(account.name, account.token);

  /** The routes of the server as a whole, at its root: opening and listing the named accounts. */
  const serverAdmin = (route: string, fields: Record<string, unknown>): ServiceResponse | undefined => {
    switch (route) {
      case "POST /__emulator/accounts": {
        if (typeof fields.name !== "string") return adminError("name (string) is required");
        if (fields.token !== undefined && (typeof fields.token !== "string" || fields.token === "")) return adminError("token must be a non-empty string");
        const known = named.has(fields.name);
        let site: AccountSite;
        try {
          site = openAccount(fields.name, fields.token as string | undefined);
        } catch (error) {
          return { status: known ? 409 : 400, body: { message: (error as Error).message } };
        }
        if (!known) save();
        return { status: known ? 200 : 201, body: { name: fields.name, ...site.address(origin) } };
      }
      case "GET /__emulator/accounts":
        return {
          status: 200,
          body: { accounts: [...named].map(([name, site]) => ({ name, crmUrl: site.address(origin).crmUrl, chatUrl: site.address(origin).chatUrl })) },
        };
      default:
        return undefined;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", "http://emulator");
    const rawBody = await readBody(req);
    if (rawBody === undefined) return send(res, { status: 413, body: { message: "Request body too large" } });

    let site = root;
    let path = url.pathname;
    const account = ACCOUNT_PATH.exec(path);
    if (account) {
      const found = named.get(account[1]);
      // An account that does not exist has no address: what a host name no account holds answers.
      if (!found) return send(res, NOT_FOUND_PAGE);
      site = found;
      path = account[2] ?? "/";
    }

    if (path.startsWith(ADMIN_PREFIX)) {
      const route = `${method} ${path}`;
      try {
        const fields = (rawBody.length > 0 ? JSON.parse(rawBody.toString("utf8")) : {}) as Record<string, unknown>;
        const answer = site.admin(route, fields ?? {}, save) ?? (site === root ? serverAdmin(route, fields ?? {}) : undefined);
        return send(res, answer ?? { status: 404, body: { message: `No emulator admin route ${route}` } });
      } catch (error) {
        return send(res, adminError((error as Error).message));
      }
    }
    return site.serve(req, res, method, url, path, rawBody, save);
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
  origin = `http://127.0.0.1:${port}`;

  return {
    ...root.address(origin),
    port,
    get accounts() {
      return Object.fromEntries([...named].map(([name, site]) => [name, site.address(origin)]));
    },
    addAccount: (name, token) => {
      const known = named.has(name);
      const site = openAccount(name, token);
      if (!known) save();
      return site.address(origin);
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive connections would hold close() open; nobody is mid-request in a clean shutdown.
      for (const socket of sockets) socket.destroy();
      await closed;
      for (const site of [root, ...named.values()]) site.crm.stopBackgroundWork();
      save();
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
