import { attributesOf, badRequest, ok } from "../api";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import type { Row } from "../store";
import { crmModule, table } from "../module";

/** An account-wide on/off switch: site tracking, event tracking. */
export interface AccountSwitchRow extends Row {
  name: string;
  enabled: 0 | 1;
}

export const accountSwitchesModule = crmModule({
  tables: { accountSwitches: table<AccountSwitchRow>() },
  routes: accountSwitchRoutes,
  // Every account has them, on as the reference's default says.
  seed: ({ accountSwitches }) => {
    for (const name of ACCOUNT_SWITCHES) accountSwitches.insert({ name, enabled: 1 });
  },
});

/**
 * The account-wide on/off switches of the reference: GET /<name> answers
 * `{ <name>: { enabled } }`, PUT /<name> takes `{ <name>: { enabled } }` (required, a
 * boolean) and answers the same. The API neither creates nor deletes them: every account
 * has them, on as the reference's default says.
 */
export const ACCOUNT_SWITCHES = ["siteTracking", "eventTracking"] as const;

function accountSwitchRoutes(crm: CrmContext): Route[] {
  const { accountSwitches } = crm.tables;
  const rowOf = (name: string) => accountSwitches.find((row) => row.name === name)!;
  const answer = (name: string) => ok({ [name]: { enabled: rowOf(name).enabled === 1 } });
  return ACCOUNT_SWITCHES.flatMap((name): Route[] => [
    { method: "GET", pattern: `/${name}`, handle: () => answer(name) },
    {
      method: "PUT",
      pattern: `/${name}`,
      handle: (req) => {
        const { enabled } = attributesOf(req, name);
        // The reference answers a bad request 400; enabled is required, a boolean.
        if (typeof enabled !== "boolean") throw badRequest(`The ${name}.enabled attribute must be true or false.`);
        accountSwitches.update(rowOf(name), { enabled: enabled ? 1 : 0 });
        return answer(name);
      },
    },
  ]);
}
