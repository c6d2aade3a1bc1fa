import type { Permission } from "../shared/credentials";
import { forbidden } from "./api";
import type { KindRegistry } from "./kinds";
import type { CrmTables } from "./state";

/** What every resource module shares: the data, the kind registry and the caller's permissions. */
export interface CrmContext {
  tables: CrmTables;
  kinds: KindRegistry;
  can(token: string, permission: Permission): boolean;
  now(): number;
}

export function requirePermission(crm: CrmContext, token: string, permission: Permission): void {
  if (!crm.can(token, permission)) throw forbidden(`You do not have permission to perform this action (${permission})`);
}
