import type { Permission } from "../shared/credentials";
import type { MountedService } from "../service";
import { NOT_FOUND_PAGE, type ServiceRequest, type ServiceResponse } from "../service";
import { ApiError, ok, type CrmRequest } from "./api";
import type { CrmContext } from "./context";
import { withGeneratedDefaults, type ReadOnlyFixtures } from "./fixtures";
import { KindRegistry } from "./kinds";
import { accountContactRoutes } from "./resources/accountContacts";
import { accountRoutes } from "./resources/accounts";
import { addressRoutes } from "./resources/addresses";
import { brandingRoutes, seedBranding } from "./resources/brandings";
import { accountSwitchRoutes, seedAccountSwitches } from "./resources/accountSwitches";
import { trackingNameRoutes } from "./resources/trackingNames";
import { bulkImport } from "./resources/bulkImport";
import { calendarRoutes } from "./resources/calendars";
import { contactAutomationRoutes } from "./resources/contactAutomations";
import { contactMembers } from "./resources/contactMembers";
import { emailActivityRoutes } from "./resources/emailActivities";
import { contactRoutes } from "./resources/contacts";
import { contactFieldRoutes } from "./resources/fields";
import { listGroupRoutes } from "./resources/listGroups";
import { listRoutes } from "./resources/lists";
import { personalizationRoutes } from "./resources/personalizations";
import { savedResponseRoutes } from "./resources/savedResponses";
import { tagCollection } from "./resources/tags";
import { webhookRoutes } from "./resources/webhooks";
import { dealGroupRoutes } from "./resources/dealGroups";
import { groupRoutes, seedAdminGroup } from "./resources/groups";
import { seedAdminUser, userRoutes } from "./resources/users";
import { dealTasktypeRoutes, seedTaskTypes } from "./resources/dealTasktypes";
import { customFieldRoutes } from "./resources/customFields";
import { dealCustomFieldMetaRoutes } from "./resources/dealCustomFieldMeta";
import { customObjectRoutes, seedCustomObjects } from "./resources/customObjects";
import { messageRoutes } from "./resources/messages";
import { noteRoutes } from "./resources/notes";
import { readOnlyRoutes, type FixtureRow } from "./resources/readOnly";
import { Router } from "./router";
import { createTables, restoreTables, snapshotTables, type CrmSnapshot } from "./state";

export interface CrmServiceOptions {
  can(token: string, permission: Permission): boolean;
  fixtures?: ReadOnlyFixtures;
  contactLimit?: number;
  bulkImportDelayMs?: number;
  /** Whether a bulk import with a row lacking a valid email is refused whole (the reference's 400) rather than the row skipped (the seed's). */
  bulkImportRefusesInvalidEmails?: boolean;
  /** Whether the plan includes branding template editing; default true. */
  templateEditing?: boolean;
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

export function createCrmService(options: CrmServiceOptions): CrmService {
  const tables = createTables();
  const crm: CrmContext = { tables, kinds: new KindRegistry(), can: options.can, now: () => Date.now() };
  const readOnlyFixtures = withGeneratedDefaults(options.fixtures);
  const tags = tagCollection(crm);
  const members = contactMembers(crm, tags);
  const imports = bulkImport(crm, {
    contactLimit: options.contactLimit,
    delayMs: options.bulkImportDelayMs,
    refusesInvalidEmails: options.bulkImportRefusesInvalidEmails,
    onBackgroundChange: options.onBackgroundChange,
    members,
  });
  const router = new Router([
    // The API root: clients call it with their key to check it, a bad key being answered 403 before any route.
    { method: "GET", pattern: "/", handle: () => ok({}) },
    ...accountRoutes(crm),
    ...noteRoutes(crm),
    ...contactRoutes(crm, members),
    ...members.routes,
    ...contactAutomationRoutes(crm, readOnlyFixtures.automations as FixtureRow[]),
    ...emailActivityRoutes,
    ...accountContactRoutes(crm),
    ...customFieldRoutes(crm),
    ...addressRoutes(crm),
    ...brandingRoutes(crm, { templateEditing: options.templateEditing ?? true }),
    ...accountSwitchRoutes(crm),
    ...trackingNameRoutes(crm),
    ...calendarRoutes(crm),
    ...messageRoutes(crm),
    ...listRoutes(crm),
    ...tags.routes,
    ...contactFieldRoutes(crm),
    ...personalizationRoutes(crm),
    ...savedResponseRoutes(crm),
    ...webhookRoutes(crm),
    ...dealTasktypeRoutes(crm),
    ...dealCustomFieldMetaRoutes(crm),
    ...dealGroupRoutes(crm),
    ...groupRoutes(crm),
    ...listGroupRoutes(crm),
    ...userRoutes(crm),
    ...readOnlyRoutes(crm, readOnlyFixtures),
    ...imports.routes,
    ...customObjectRoutes(crm),
  ]);

  /** What an account holds before anyone writes: its branding, its switches, its built-in task types, its admin and the admins' group, and sample custom objects. */
  const seedDefaults = (): void => {
    seedBranding(tables);
    seedAccountSwitches(tables);
    seedTaskTypes(tables);
    seedAdminGroup(tables);
    seedAdminUser(tables);
    seedCustomObjects(tables);
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
      imports.stop();
      restoreTables(tables, state as CrmSnapshot);
      imports.resumeQueued();
    },
    reset: () => {
      imports.stop();
      for (const table of Object.values(tables)) table.clear();
      seedDefaults();
    },
    operations: () => router.operations(),
    setContactLimit: imports.setContactLimit,
    stopBackgroundWork: imports.stop,
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
