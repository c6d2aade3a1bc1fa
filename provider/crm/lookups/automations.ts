// Automations: read-only on the service (GET /automations is their only operation),
// so they are looked up, never managed.

import { z } from "zod";
import { strictObject } from "../../kit/inputs";
import { walk } from "../service/collection";
import { flagOf, idOf, numberOf, textOf, timestampOf } from "../service/normalize";
import { exactlyOne, idOrName, type LookupOptions, outputForm, startLookup } from "./kit";
import { sharedWalk } from "./shared-walks";

/** An automation of the account. */
export interface Automation {
  /** The automation's id. */
  id: string;
  /** The automation's name. */
  name: string;
  /** The service's status code; the service's specification does not give the codes' meanings. */
  status: number;
  /** Contacts that entered the automation. */
  entered: number;
  /** Contacts that exited it. */
  exited: number;
  /** Whether the automation is hidden from the service's lists. */
  hidden: boolean;
  /** The id of the user who made it. */
  userid: string | null;
  /** When it was created, ISO 8601. */
  cdate: string | null;
  /** When it was last changed, ISO 8601. */
  mdate: string | null;
  /** Address of its screenshot. */
  screenshot: string | null;
}

export interface GetAutomationsArgs {
  /** Only automations whose name contains this text, regardless of case. */
  nameContains?: string;
  /** Only automations with this status code. */
  status?: number;
}

export interface GetAutomationsResult {
  /** The automations found. */
  automations: Automation[];
}

/** Names one automation: by its id, or by its exact name (which must then belong to one automation only). */
export type GetAutomationArgs =
  | {
      /** The automation's id. */
      id: string;
    }
  | {
      /** The automation's exact name. */
      name: string;
    };

const statusCode = z.number({ invalid_type_error: "must be a number" }).int("must be a whole number").nonnegative("must not be negative");

const listArgs = strictObject(
  { nameContains: z.string({ invalid_type_error: "must be a string" }).min(1, "must not be empty").optional(), status: statusCode.optional() },
  "the arguments of getAutomations",
);

// The service filters automations by nothing: every lookup walks the collection.
const narrowAutomations = "the service cannot filter automations";

function automationOf(automation: Record<string, unknown>): Automation {
  return {
    id: String(automation.id),
    name: String(automation.name ?? ""),
    status: numberOf(automation.status) ?? 0,
    entered: numberOf(automation.entered) ?? 0,
    exited: numberOf(automation.exited) ?? 0,
    hidden: flagOf(automation.hidden),
    userid: idOf(automation.userid),
    cdate: timestampOf(automation.cdate),
    mdate: timestampOf(automation.mdate),
    screenshot: textOf(automation.screenshot),
  };
}

/** Every automation of the account, optionally only those whose name contains a text or with a status. */
export async function getAutomations(args: GetAutomationsArgs = {}, opts?: LookupOptions): Promise<GetAutomationsResult> {
  const lookup = startLookup("getAutomations", listArgs, args, opts);
  const { nameContains, status } = lookup.args;
  const all = await sharedWalk<Record<string, unknown>>(lookup, "/automations", "automations", narrowAutomations);
  const automations = all
    .map(automationOf)
    .filter((automation) => nameContains === undefined || automation.name.toLowerCase().includes(nameContains.toLowerCase()))
    .filter((automation) => status === undefined || automation.status === status);
  return { automations };
}

/** The automation with this id, or with exactly this name; an error when none or several match. */
export async function getAutomation(args: GetAutomationArgs, opts?: LookupOptions): Promise<Automation> {
  const lookup = startLookup("getAutomation", idOrName("automation"), args, opts);
  const key = lookup.args;
  const matches = (automation: Record<string, unknown>) => (key.id !== undefined ? String(automation.id) === key.id : automation.name === key.name);
  // By id, the walk ends at the match; by name, it reads every automation so that a second one of that name is seen: getAutomations' walk.
  const all =
    key.id !== undefined
      ? await walk<Record<string, unknown>>(lookup.client, "/automations", "automations", {}, matches, lookup.bound(narrowAutomations))
      : await sharedWalk<Record<string, unknown>>(lookup, "/automations", "automations", narrowAutomations);
  return exactlyOne(lookup.client.resource, "automation", key, all.filter(matches).map(automationOf));
}

/** getAutomations taking Outputs: the result is an Output. */
export const getAutomationsOutput = outputForm(getAutomations);

/** getAutomation taking Outputs: the result is an Output. */
export const getAutomationOutput = outputForm(getAutomation);
