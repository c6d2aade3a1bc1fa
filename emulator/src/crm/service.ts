import type { Permission } from "../shared/credentials";
import type { MountedService } from "../service";
import { NOT_FOUND_PAGE, type ServiceRequest, type ServiceResponse } from "../service";
import { ApiError, ok, type CrmRequest } from "./api";
import type { CrmContext, CrmSettings } from "./context";
import { KindRegistry } from "./kinds";
import { createTables } from "./module";
import { CRM_MODULES } from "./modules";
import { Router } from "./router";
import { restoreTables, snapshotTables, type Snapshot } from "./state";

export interface CrmServiceOptions extends CrmSettings {
  can(token: string, permission: Permission): boolean;
  /** Called when state changes outside a request (a bulk sync writing its rows). */
  onBackgroundChange?: () => void;
}

export interface CrmService extends MountedService {
  /** Every operation the service serves, "PUT /contacts/{id}", as sdk-docs/emulator.md lists them. */
  operations(): string[];
  setContactLimit(limit: number): void;
  /** Cancels queued background work (pending bulk syncs) at shutdown. */
  stopBackgroundWork(): void;
}

/** The CRM account: the tables, routes and seeds of the modules of modules.ts. */
export function createCrmService(options: CrmServiceOptions): CrmService {
  const { can, onBackgroundChange, ...settings } = options;
  const tables = createTables(CRM_MODULES);
  const shared = new Map<unknown, unknown>();
  const timers = new Set<NodeJS.Timeout>();
  const crm: CrmContext = {
    tables,
    kinds: new KindRegistry(),
    can,
    now: () => Date.now(),
    settings,
    shared<T>(make: (crm: CrmContext) => T): T {
      if (!shared.has(make)) shared.set(make, make(crm));
      return shared.get(make) as T;
    },
    later(delayMs, work) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        work();
        onBackgroundChange?.();
      }, delayMs);
      timer.unref();
      timers.add(timer);
    },
  };
  const stopBackgroundWork = (): void => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
  const router = new Router([
    // The API root: clients call it with their key to check it, a bad key being answered 403 before any route.
    { method: "GET", pattern: "/", handle: () => ok({}) },
    ...CRM_MODULES.flatMap((module) => module.routes?.(crm) ?? []),
  ]);

  /** What an account holds before anyone writes (its branding, its switches, its admin...): each module's seed. */
  const seedDefaults = (): void => {
    for (const module of CRM_MODULES) module.seed?.(tables);
  };
  seedDefaults();

  const handle = (request: ServiceRequest): ServiceResponse => {
    const match = router.match(request.method, request.path);
    if (match.kind === "none") return NOT_FOUND_PAGE;
    if (match.kind === "wrongMethod") {
      return { status: 405, headers: { Allow: match.allowed.join(", ") }, body: { message: "Method Not Allowed" } };
    }
    try {
      const req: CrmRequest = {
        method: request.method,
        params: match.params,
        query: request.query,
        body: parseBody(request.rawBody),
        baseUrl: `http://${request.headers.host ?? "127.0.0.1"}${request.accountPath}/api/3`,
        token: request.token,
      };
      return match.route.handle(req);
    } catch (error) {
      if (error instanceof ApiError) return error.response;
      throw error;
    }
  };

  return {
    handle,
    routeTemplate: (method, path) => {
      const match = router.match(method, path);
      if (match.kind === "route") return match.route.pattern;
      return match.kind === "wrongMethod" ? match.pattern : undefined;
    },
    snapshot: () => snapshotTables(tables),
    restore: (state) => {
      stopBackgroundWork();
      restoreTables(tables, state as Snapshot<typeof tables>);
      for (const module of CRM_MODULES) module.restored?.(crm);
    },
    reset: () => {
      stopBackgroundWork();
      for (const table of Object.values(tables)) table.clear();
      seedDefaults();
    },
    operations: () => router.operations(),
    setContactLimit: (limit) => {
      settings.contactLimit = limit;
    },
    stopBackgroundWork,
  };
}

function parseBody(rawBody: Buffer): unknown {
  const text = rawBody.toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError({ status: 400, body: { message: `Malformed JSON body: ${(error as Error).message}` } });
  }
}
