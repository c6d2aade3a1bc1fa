import type { Permission } from "../shared/credentials";
import { forbidden } from "./api";
import type { ReadOnlyFixtures } from "./fixtures";
import type { KindRegistry } from "./kinds";
import type { CrmTables } from "./modules";

/** What every resource module shares: the data, the kind registry, the caller's permissions and the account's settings. */
export interface CrmContext {
  tables: CrmTables;
  kinds: KindRegistry;
  can(token: string, permission: Permission): boolean;
  now(): number;
  settings: CrmSettings;
  /** The account's one `make(crm)`, made when first asked for: what several modules use (the tags' collection, the contacts' members). */
  shared<T>(make: (crm: CrmContext) => T): T;
  /** Runs work after delayMs, outside any request (a bulk sync writing its rows); a reset, a restore or a shutdown cancels what has not run. */
  later(delayMs: number, work: () => void): void;
}

/** How the account was set up, as the service was started. */
export interface CrmSettings {
  fixtures?: ReadOnlyFixtures;
  contactLimit?: number;
  bulkImportDelayMs?: number;
  /** Whether a bulk import with a row lacking a valid email is refused whole (the reference's 400) rather than the row skipped (the seed's). */
  bulkImportRefusesInvalidEmails?: boolean;
  /** Whether the plan includes branding template editing; default true. */
  templateEditing?: boolean;
}

export function requirePermission(crm: CrmContext, token: string, permission: Permission): void {
  if (!crm.can(token, permission)) throw forbidden(`You do not have permission to perform this action (${permission})`);
}
