/** API keys known to the emulator, each belonging to an account and holding a set of permissions. */

/** Permissions the CRM service checks; a key created without a list holds all of them. */
export const PERMISSIONS = ["manage_accounts", "pg_subscriber_add"] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const DEFAULT_ACCOUNT = "default";

export interface Credential {
  account: string;
  permissions: ReadonlySet<string>;
}

export class CredentialStore {
  private readonly keys = new Map<string, Credential>();

  constructor(defaultToken: string) {
    this.add(defaultToken);
  }

  add(token: string, permissions: readonly string[] = PERMISSIONS, account = DEFAULT_ACCOUNT): void {
    this.keys.set(token, { account, permissions: new Set(permissions) });
  }

  lookup(token: string | undefined): Credential | undefined {
    return token === undefined ? undefined : this.keys.get(token);
  }

  can(token: string, permission: Permission): boolean {
    return this.keys.get(token)?.permissions.has(permission) ?? false;
  }
}
