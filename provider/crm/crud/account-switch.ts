// An account-wide on/off switch (site tracking, event tracking): one object per account at
// /<switch>, which the API can read and set (GET and PUT) but neither create nor delete.
// Creating the resource takes the switch over, remembering how it was found
// (`originalValues`, see ../kit/take-over.ts); deleting it puts that back, so that destroy
// leaves the account's switch as the stack found it. A switch's module is its declaration
// of words; the rest is here.

import { z } from "zod";
import { defineKind } from "../../definition";
import type { ExportDeclaration } from "./export-declaration";
import { declareResource, input } from "../../kit/declaration";
import { withoutProvider } from "../../kit/inputs";
import { checkInputs, declaredKind, type ResourceKind, updatableFields } from "../../kit/check-diff";
import type { Created, Found, ReadFrom, ResourceCore, Updated } from "../../kit/core";
import { announceAdoption, claimNaturalKey, notAdoptable, releaseNaturalKey } from "../../kit/adoption";
import { confirmWrite } from "../../kit/write-errors";
import { changedField, originalsOf, originalValuesOutput } from "../../kit/take-over";
import { wireForms } from "../../kit/wire";
import { ServiceError } from "../../transport/errors";
import { CrmClient } from "../service/client";
import { objectIn, type ServiceObject } from "../service/collection";
import { flagOf } from "../service/normalize";

export interface AccountSwitchSpec {
  /** The class's name: `SiteTracking`. */
  name: string;
  /** The switch's path and answer member, which is also the resource's id: `siteTracking`. */
  member: string;
  /** The switch in words: `site tracking`. */
  what: string;
  /** What the resource is: its class's doc comment, its schema's and its page's description. */
  description: string;
}

export function accountSwitch(spec: AccountSwitchSpec) {
  const { member, what } = spec;
  const path = `/${member}`;
  const declaration = declareResource({
    namespace: "crm",
    name: spec.name,
    inputs: {
      enabled: input(
        z.boolean({ required_error: "is required: true or false", invalid_type_error: "must be true or false" }),
        `Whether ${what} is on for the account.`,
        {
          wire: { read: flagOf },
        },
      ),
      adoptId: input(
        z.string({ invalid_type_error: `must be "${member}"` }).optional(),
        `"${member}": takes the account's ${what} switch over, as a create does without it (\`pulumi-crm export\` writes none); a switch already as declared gets no write.`,
      ),
    },
    outputs: { originalValues: originalValuesOutput() },
  });
  const forms = wireForms(declaration.fields);
  const type = declaration.type;
  const kind: ResourceKind<typeof declaration.inputSchema> = { ...declaredKind(declaration), label: () => type };
  const client = () => new CrmClient(type);
  const parse = (props: Record<string, unknown>) => declaration.inputSchema.parse(withoutProvider(props));

  const stateOf = (answer: ServiceObject, originalValues: Record<string, unknown>): Record<string, unknown> => ({ ...forms.stateOf(answer), originalValues });
  const current = async (crm: CrmClient) => objectIn(await crm.call({ method: "GET", path }), member);
  /** Sets the switch, confirming that the service took it; returns the switch as answered. */
  const put = async (crm: CrmClient, enabled: boolean): Promise<ServiceObject> => {
    const answer = objectIn(await crm.call({ method: "PUT", path, body: { [member]: { enabled } } }), member);
    confirmWrite(crm.resource, member, { enabled }, forms.stateOf(answer));
    return answer;
  };

  async function takeOver(props: Record<string, unknown>): Promise<Created> {
    const inputs = parse(props);
    const crm = client();
    // The account has one switch of the kind: another id names none.
    if (inputs.adoptId !== undefined && inputs.adoptId !== member) throw notAdoptable(type, type, inputs.adoptId);
    if (!claimNaturalKey(crm, type, member)) {
      throw new ServiceError(`${type}: two ${spec.name} resources of this program manage the account's ${what}; declare it once.`, {
        code: "duplicate",
        field: "enabled",
      });
    }
    try {
      const found = await current(crm);
      const originalValues = { enabled: flagOf(found.enabled) };
      // A switch already as declared gets no write.
      const answer = originalValues.enabled === inputs.enabled ? found : await put(crm, inputs.enabled);
      announceAdoption(type, member);
      return { id: member, outs: stateOf(answer, originalValues) };
    } catch (error) {
      releaseNaturalKey(crm, type, member);
      throw error;
    }
  }

  async function read(id: string, from: ReadFrom): Promise<Found | undefined> {
    // Another id names no switch of this kind: nothing to read (an import fails clearly, a refresh drops it).
    if (id !== member) return undefined;
    const found = await current(client());
    // An import takes the switch over as found: destroy puts it back as it is now.
    const state = stateOf(found, "import" in from ? forms.stateOf(found) : originalsOf(from.refresh));
    return { id, outputs: state, inputs: { enabled: state.enabled } };
  }

  async function update(_id: string, _olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Updated> {
    const inputs = parse(news);
    return { outs: stateOf(await put(client(), inputs.enabled), originalsOf(_olds)) };
  }

  /** Puts the switch back as found; nothing to put back when the create failed before its take-over. */
  async function restore(_id: string, outputs: Record<string, unknown>): Promise<void> {
    const { enabled } = originalsOf(outputs);
    if (enabled !== undefined) await put(client(), enabled as boolean);
  }

  const core: ResourceCore = {
    declaration,
    importable: true,
    check: async (_olds, news) => checkInputs(kind, news),
    diff: async (_id, olds, news) => ({
      fields: updatableFields(kind)
        .filter(changedField(olds, news))
        .map((field) => ({ field, replace: false })),
    }),
    create: takeOver,
    read,
    update,
    delete: restore,
  };

  /** The inputs that declare the switch as the service holds it, as read gives them back (for `pulumi-crm export`). */
  const inputsDeclaring = (object: ServiceObject): Record<string, unknown> => ({ enabled: flagOf(object.enabled) });

  /** What `pulumi-crm export` reads of the switch (see ./export-declaration.ts): its one object. */
  const exported: ExportDeclaration = {
    section: `The account's ${what}: taken over, and put back as found on destroy`,
    path,
    collection: member,
    single: true,
    accountWide: true,
    part: "setup",
    name: () => what,
    title: () => what,
  };

  return defineKind(spec.description, declaration, core, { inputsDeclaring, exported });
}
