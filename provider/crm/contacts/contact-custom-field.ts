// crm.ContactCustomField: a custom field of contacts, with its options (dropdown, listbox,
// radio, checkbox) and the lists it shows on, which the service keeps behind calls of their
// own (/fieldOption/bulk, /fieldRels) and which are made and removed with the field. Its
// declaration and those calls; the rest is plainKind's (see ../crud/plain-kind.ts).

import { z } from "zod";
import { plainKind } from "../crud/plain-kind";
import { input, output } from "../../kit/declaration";
import { nameText, oneOf, optionalText, requiredText, serviceId } from "../../kit/inputs";
import { types } from "../../kit/value-types";
import type { CrmClient } from "../service/client";
import { deleteObject, type ServiceObject } from "../service/collection";
import { idOf } from "../service/normalize";
import { sameValue } from "../../kit/check-diff";
import * as wire from "../service/wire-forms";

const fieldTypes: [string, ...string[]] = ["text", "textarea", "date", "datetime", "dropdown", "listbox", "radio", "checkbox", "hidden"];
/** The types whose values are chosen among options. */
const optionTypes = ["dropdown", "listbox", "radio", "checkbox"];
/** A relation to list 0 shows the field on every list. */
const everyList = "0";

const options = z
  .array(requiredText("an option", 255), { invalid_type_error: "must be a list of options" })
  .refine((given) => new Set(given).size === given.length, "must not hold an option twice")
  .optional();
const listIds = z
  .array(serviceId("a list"))
  .optional()
  .transform((ids) => (ids?.length ? [...new Set(ids)].sort((a, b) => Number(a) - Number(b)) : undefined));
/** Members read from what the field's answer carries beside it (see alongside), never sent with the field. */
const related = (answer: string) => ({ request: false as const, answer, read: (value: unknown) => value });

interface FieldAnswer {
  fieldOptions?: Array<{ field: unknown; value: unknown; orderid: unknown }>;
  fieldRels?: Array<{ id: unknown; field: unknown; relid: unknown }>;
}

/** The field's options and list relations, which its answer (one field or a page) carries beside it under `fieldOptions` and `fieldRels`. */
function sideListsOf(id: string, answer: FieldAnswer): Required<FieldAnswer> {
  const own = <Item extends { field: unknown }>(items: Item[] | undefined) => (items ?? []).filter((item) => idOf(item.field) === id);
  return { fieldOptions: own(answer.fieldOptions), fieldRels: own(answer.fieldRels) };
}

const valuesInOrder = (fieldOptions: Required<FieldAnswer>["fieldOptions"]) =>
  [...fieldOptions].sort((a, b) => Number(a.orderid) - Number(b.orderid)).map((option) => String(option.value));

/** The field with its options' values in order, and its lists (list 0, every list, left out). */
function alongside(field: ServiceObject, answer: FieldAnswer): ServiceObject {
  const { fieldOptions, fieldRels } = sideListsOf(String(field.id), answer);
  const values = valuesInOrder(fieldOptions);
  const lists = fieldRels.map((rel) => idOf(rel.relid)!).filter((relid) => relid !== everyList);
  // Not `options`: the field's own member of that name holds the options' ids.
  return { ...field, optionValues: values.length ? values : undefined, listIds: lists.length ? lists.sort((a, b) => Number(a) - Number(b)) : undefined };
}

/** Options can be added, never removed or moved (the reference has no call for either): a change that only appends options is made in place. */
const onlyAppended = (held: unknown, wanted: unknown) => {
  const before = (held ?? []) as string[];
  return Array.isArray(wanted) && wanted.length > before.length && before.every((value, index) => wanted[index] === value);
};

/** The field's options and relations as the service holds them. */
const heldSideLists = async (client: CrmClient, id: string) =>
  sideListsOf(id, (await client.call({ method: "GET", path: `/fields/${id}` })).body as FieldAnswer);

/**
 * Adds the wanted options after the `held` ones, in one bulk call. After a failure that may
 * have taken effect, the field is read: sent again only if the options are not there.
 */
async function addOptions(
  client: CrmClient,
  id: string,
  held: Required<FieldAnswer>["fieldOptions"],
  wanted: string[],
  defaultValue: string | undefined,
): Promise<void> {
  const added = wanted.slice(held.length);
  const ordered = Math.max(0, ...held.map((option) => Number(option.orderid) || 0));
  const fieldOptions = added.map((value, index) => ({
    field: Number(id),
    value,
    label: value,
    orderid: ordered + index + 1,
    isdefault: value === defaultValue,
  }));
  if (!fieldOptions.length) return;
  await client.call(
    { method: "POST", path: "/fieldOption/bulk", body: { fieldOptions } },
    { recover: async () => (sameValue(valuesInOrder((await heldSideLists(client, id)).fieldOptions), wanted) ? { status: 200, body: {} } : undefined) },
  );
}

/** Shows the field on a list (0: every list); after a failure that may have taken effect, sent again only if the field is not on it. */
async function relate(client: CrmClient, id: string, relid: string): Promise<void> {
  await client.call(
    { method: "POST", path: "/fieldRels", body: { fieldRel: { field: Number(id), relid: Number(relid) } } },
    {
      recover: async () => {
        const found = (await heldSideLists(client, id)).fieldRels.find((rel) => idOf(rel.relid) === relid);
        return found && { status: 201, body: { fieldRel: found } };
      },
    },
  );
}

export const contactCustomField = plainKind({
  description: "A custom field of contacts, with its options and the lists it shows on.",
  name: "ContactCustomField",
  noun: "field",
  namedBy: "title",
  inputs: {
    title: input(nameText("the field's title, unique among contact fields", 255), "The field's title, unique among contact fields (regardless of case).", {
      wire: wire.text(),
    }),
    type: input(oneOf(fieldTypes), `The field's type: ${fieldTypes.join(", ")}. A change replaces the field, and contacts' values of it are lost.`, {
      replaceOnChanges: true,
      wire: wire.text(),
    }),
    description: input(optionalText(1000), 'The description. Removing it, or setting it to "", clears it.', {
      wire: wire.optionalText({ request: "descript" }),
    }),
    defaultValue: input(optionalText(255), 'The default value; of a field with options, one of them. Removing it, or setting it to "", clears it.', {
      wire: wire.optionalText({ request: "defval" }),
    }),
    options: input(
      options,
      `The options, in order, each its own value and label: required for a field of type ${optionTypes.join(", ")}, refused for the others. Options added at the end are added in place; any other change (an option removed, renamed or moved) replaces the field, since the service cannot remove or move an option.`,
      { replaceUnless: onlyAppended, wire: related("optionValues") },
    ),
    listIds: input(
      listIds,
      "The ids of the lists (`crm.List` ids) the field shows on; unset, every list. A change adds and removes the relations in place; kept sorted.",
      {
        refersTo: "list",
        wire: related("listIds"),
      },
    ),
  },
  outputs: { perstag: output(types.string, "The tag messages write as `%PERSTAG%` for the contact's value, given by the service.", { wire: wire.text() }) },
  uniqueName: { field: "title", what: "contact field title" },
  // A page of fields carries their options and relations too: the export reads them from its pages.
  exported: { alongside, lookup: "getContactCustomField" },
  deleteBeforeReplace: true,
  kind: (forms) => ({
    // The type decides which inputs are allowed.
    refine: (inputs, refuse) => {
      const chosen = optionTypes.includes(inputs.type);
      if (chosen && !inputs.options?.length) refuse("options", `is required for a field of type ${inputs.type}: the values to choose from`);
      if (!chosen && inputs.options) refuse("options", `is allowed only for a field of type ${optionTypes.join(", ")}, not ${inputs.type}`);
      if (chosen && inputs.defaultValue !== undefined && !inputs.options?.includes(inputs.defaultValue))
        refuse("defaultValue", `must be one of the options: ${inputs.options?.join(", ")}`);
      return inputs;
    },
    alongside,
    // The options and relations are made after the field's own write: what the service holds is read back.
    readBackAfterWrite: true,
    afterCreate: async (client, id, inputs) => {
      await addOptions(client, id, [], inputs.options ?? [], inputs.defaultValue);
      for (const relid of inputs.listIds ?? [everyList]) await relate(client, id, relid);
    },
    // Options are appended to those the service holds (not the state's: a create cut short may have made some); the read-back confirms the rest.
    afterUpdate: async (client, id, _olds, inputs) => {
      const held = await heldSideLists(client, id);
      if (onlyAppended(valuesInOrder(held.fieldOptions), inputs.options)) await addOptions(client, id, held.fieldOptions, inputs.options, inputs.defaultValue);
      const wanted: string[] = inputs.listIds ?? [everyList];
      const { fieldRels } = held;
      for (const rel of fieldRels.filter((rel) => !wanted.includes(idOf(rel.relid)!))) await deleteObject(client, `/fieldRels/${idOf(rel.id)}`);
      for (const relid of wanted.filter((relid) => !fieldRels.some((rel) => idOf(rel.relid) === relid))) await relate(client, id, relid);
    },
    // Matched on the field's own members: a list of fields carries neither options nor relations.
    sameContent: (inputs) => {
      const { options: _options, listIds: _lists, ...sent } = forms.desiredState(inputs);
      return { path: "/fields", collection: "fields", sent, stateOf: forms.stateOf, createdMs: (field) => Date.parse(String(field.cdate)) || undefined };
    },
  }),
});
