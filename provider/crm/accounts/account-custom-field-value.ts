// crm.AccountCustomFieldValue: the value of one custom field for one account (the
// service's accountCustomFieldDatum). Its form depends on the field's type, which check
// cannot know without a request: a create reads the field's definition and refuses a
// value that does not fit before writing, and the type joins the state, where diff and
// update find it. A value outside an option field's options is refused before writing
// too, and by check when the inputs hold them. The lifecycle is crmCore's (see ../crud).

import { z } from "zod";
import { defineKind } from "../../definition";
import type { ExportDeclaration } from "../crud/export-declaration";
import { declareResource, input, output, takeOverById } from "../../kit/declaration";
import { checkOnly, containsUnknown, serviceId, withoutProvider } from "../../kit/inputs";
import { types } from "../../kit/value-types";
import { labelByIds } from "../../kit/check-diff";
import { perDeployment } from "../../kit/deployment";
import type { Changes, Checked } from "../../kit/core";
import { PulumiCrmError, ServiceError, sharedFailureFor } from "../../transport/errors";
import { CrmClient } from "../service/client";
import { coalescing } from "../service/coalesce";
import { getObject, pageOf, type ServiceObject, walk } from "../service/collection";
import { crmCore, type CrmCore, type CrmKindSpec } from "../crud";
import { madeHere } from "../service/made-here";
import {
  currencyCodeInput,
  type FieldValue,
  fieldValueInput,
  fitValue,
  notAmongOptions,
  optionTypes,
  valueForService,
  valueFromService,
} from "../crud/custom-field-types";
import { accountCustomField } from "./account-custom-field";
import { currencyCodeOf, idOf, multiValueOf, textOf } from "../service/normalize";
import { wireForms } from "../../kit/wire";
import * as wire from "../service/wire-forms";

const declaration = declareResource({
  namespace: "crm",
  name: "AccountCustomFieldValue",
  inputs: {
    // Sent with a create only (a change replaces the value); answered as a number, under either name.
    accountId: input(serviceId("the account, such as a crm.Account's id"), "The account's id, e.g. a crm.Account's `id`.", {
      replaceOnChanges: true,
      refersTo: "account",
      wire: { ...wire.id({ request: "customerAccountId", answer: ["accountId", "customerAccountId"] }), createOnly: true },
    }),
    customFieldId: input(serviceId("the custom field, such as a crm.AccountCustomField's id"), "The custom field's id, e.g. a crm.AccountCustomField's `id`.", {
      replaceOnChanges: true,
      refersTo: "account-custom-field",
      wire: { ...wire.id({ answer: ["customFieldId", "accountCustomFieldMetumId"] }), createOnly: true },
    }),
    fieldValue: input(
      fieldValueInput("the value, in the form of the field's type"),
      "The value, in the form of the field's type: a list of options for multiselect and checkbox; a whole amount in minor units (10050 for 100.50) for currency; a number for number; a date as YYYY-MM-DD, YYYY/MM/DD or MM/DD/YYYY for date (all three are the same value); `YYYY-MM-DD HH:MM:SS` (UTC) for datetime; else a string. A value that does not fit the type is refused before anything is written.",
      // In the form of the field's type (see readRelated), both ways: multi-values as `||a||b||` or a list, dates in any accepted form.
      {
        wire: { read: (value, datum) => valueFromService(textOf(datum.fieldType) ?? undefined, value), send: (value) => valueForService(value as FieldValue) },
      },
    ),
    fieldCurrency: input(
      currencyCodeInput.optional(),
      "3-letter currency code of a currency value (compared in capitals); currency fields only. Unset: the field's default currency, left alone.",
      { wire: { read: (code) => currencyCodeOf(code) ?? undefined } },
    ),
    adoptExisting: input(
      z.boolean({ invalid_type_error: "must be true or false" }).default(false),
      "Take over the value the account already has for this field, and that no stack manages, instead of failing.",
    ),
    adoptId: takeOverById("value", "it must be of the declared account and field, and is set to the declared value where it differs"),
    fieldOptions: input(
      checkOnly(z.array(z.string({ invalid_type_error: "must be a string" }), { invalid_type_error: "must be a list of strings" }).optional()),
      "The field's options, e.g. its crm.AccountCustomField's `fieldOptions`: a value that is not among them then fails check, and so the preview. Without them, a create or an update reads the field's options and refuses such a value before writing.",
    ),
  },
  outputs: {
    // Not in the service's answer: the field's (see readRelated).
    fieldType: output(types.string, "The field's type, read when the value was created: a field never changes type (a new type is a new field).", {
      wire: { read: (type) => textOf(type) ?? undefined },
    }),
  },
});

/** The inputs, with the field's type once a write has looked it up (see prepareWrite). */
type ValueInputs = z.output<typeof declaration.inputSchema> & Partial<Typed>;

/**
 * The value's type, as the state and a write's inputs hold it: its field's, read when the value
 * is written or imported; a field never changes type (that replaces it, and so its values).
 */
const typed = (fieldType: string) => ({ fieldType });
type Typed = ReturnType<typeof typed>;

const resourceType = declaration.type;

// Named as namedForPeople names it where the field's label and the account's name are not at hand, so that every message reads alike.
const label = labelByIds(resourceType, ["customFieldId", "accountId"], ([field, account]) => `of field ${field} for account ${account}`);

/** The value in its field type's one form; refused, naming the resource by its ids, when it does not fit. */
function fittedValue(inputs: Record<string, unknown>, fieldType: string): FieldValue {
  const problem = misfit(inputs, fieldType);
  if (problem) throw new ServiceError(`${label(inputs)}: ${problem}`, {});
  return (fitValue(fieldType, inputs.fieldValue) as { value: FieldValue }).value;
}

/** Why the value does not fit its field's type, or undefined when it does. */
function misfit(inputs: Record<string, unknown>, fieldType: string): string | undefined {
  if (inputs.fieldCurrency !== undefined && fieldType !== "currency") return `fieldCurrency is only for currency fields, not for a ${fieldType} field.`;
  const fitted = fitValue(fieldType, inputs.fieldValue);
  return "problem" in fitted ? `fieldValue ${fitted.problem}.` : undefined;
}

/**
 * The value named as a person reads it, `crm.AccountCustomFieldValue of field "Tier" (7)
 * for account "Acme" (3)`, for a write's error: the field's label is known from its
 * look-up, the account's name takes one GET, and what cannot be read stays an id.
 */
async function namedForPeople(client: CrmClient, inputs: ValueInputs, field: FieldFacts): Promise<string> {
  const account = await getObject(client, `/accounts/${inputs.accountId}`, "account").catch(() => undefined);
  const name = (text: unknown, id: string) => (typeof text === "string" && text ? `"${text}" (${id})` : id);
  return `${resourceType} of field ${name(field.fieldLabel, inputs.customFieldId)} for account ${name(account?.name, inputs.accountId)}`;
}

/** What a value needs of its field (the type, the options of an option field, and the label its messages name), as crm.AccountCustomField reads it. */
type FieldFacts = Typed & Omit<ReturnType<typeof accountCustomField.fieldStateOf>, keyof Typed>;
const factsOf = (field: ServiceObject) => accountCustomField.fieldStateOf(field) as FieldFacts;

/**
 * Fields read in this deployment, or being read, by account and field: a field never
 * changes type (a new type is a new field, and so new values), so one read holds for
 * the deployment, and values arriving while it is under way wait for it.
 */
const fieldTypes = perDeployment(() => new Map<string, Promise<FieldFacts>>());
const fieldKey = (client: CrmClient, customFieldId: string) => `${client.accountKey} ${customFieldId}`;

function fieldOf(client: CrmClient, fieldId: string): Promise<FieldFacts> {
  const key = fieldKey(client, fieldId);
  const read = fieldTypes();
  let facts = read.get(key);
  if (!facts) {
    // The read is the field's, not the first value's: its failure is told in the name of each value waiting for it.
    const reader = new CrmClient(`reading custom field ${fieldId}`);
    read.set(key, (facts = lookUpTogether(client.accountKey, { client: reader, fieldId })));
    // A failed read is tried again by the next value of the field.
    facts.catch(() => read.delete(key));
  }
  return facts.catch((error: unknown) => {
    throw sharedFailureFor(client.resource, error);
  });
}

/**
 * Field types looked up together (the values of a deployment's creates): several from
 * the definitions' pages, all of which are remembered; a lone one, and one the pages
 * lack, by its own GET.
 */
const lookUpTogether = coalescing<{ client: CrmClient; fieldId: string }, FieldFacts>(async (group) => {
  const { client } = group[0].request;
  const listed = new Map<string, FieldFacts>();
  if (new Set(group.map((waiting) => waiting.request.fieldId)).size > 1) {
    // A failed walk leaves each look-up to its own GET, which reports on its own resource.
    const fields = await walk<ServiceObject>(client, "/accountCustomFieldMeta", "accountCustomFieldMeta", { "orders[id]": "ASC" }).catch(() => []);
    for (const field of fields) listed.set(String(field.id), factsOf(field));
    const read = fieldTypes();
    for (const [id, facts] of listed) if (!read.has(fieldKey(client, id))) read.set(fieldKey(client, id), Promise.resolve(facts));
  }
  await Promise.all(
    group.map(({ request, resolve, reject }) => {
      const known = listed.get(request.fieldId);
      return (known ? Promise.resolve(known) : fetchedField(request.client, request.fieldId)).then(resolve, reject);
    }),
  );
});

async function fetchedField(client: CrmClient, fieldId: string): Promise<FieldFacts> {
  const field = await getObject(client, `/accountCustomFieldMeta/${fieldId}`, "accountCustomFieldMetum");
  if (!field)
    throw new ServiceError(`${client.resource}: customFieldId ${fieldId} is not a custom account field of this CRM account.`, {
      status: 404,
      field: "customFieldId",
    });
  return factsOf(field);
}

/**
 * Why the value is not among its option field's options, or undefined when it is (or the
 * field lists none). Options read earlier in this host are read again before a value is
 * refused: the field may have gained the option since, earlier in this deployment.
 */
async function notAnOption(client: CrmClient, inputs: ValueInputs, field: FieldFacts): Promise<string | undefined> {
  if (!optionTypes.has(field.fieldType)) return undefined;
  const value = fittedValue(inputs, field.fieldType);
  const outside = (options: string[] | undefined) => options && notAmongOptions(value, options);
  if (!outside(field.fieldOptions)) return undefined;
  const current = await fetchedField(client, inputs.customFieldId);
  fieldTypes().set(fieldKey(client, inputs.customFieldId), Promise.resolve(current));
  const problem = outside(current.fieldOptions);
  return problem && `fieldValue ${problem}.`;
}

/** The account's values, page by page (meta.total is a number here, and not trusted). */
async function findValue(client: CrmClient, inputs: ValueInputs): Promise<ServiceObject | undefined> {
  const isIt = (value: ServiceObject) =>
    idOf(value.accountId ?? value.customerAccountId) === inputs.accountId && idOf(value.customFieldId) === inputs.customFieldId;
  const values = await walk<ServiceObject>(
    client,
    "/accountCustomFieldData",
    "accountCustomFieldData",
    { "filters[customerAccountId]": inputs.accountId },
    isIt,
  );
  return values.find(isIt);
}

const forms = wireForms(declaration.fields);
/** The id of a value's field, as its state holds it. */
const fieldIdOf = (value: ServiceObject) => forms.stateOf(value).customFieldId as string;

const kind: CrmKindSpec<typeof declaration.inputSchema> = {
  label,
  serviceAssigned: ["fieldCurrency"],
  path: "/accountCustomFieldData",
  member: "accountCustomFieldDatum",
  collection: "accountCustomFieldData",
  async prepareWrite(client: CrmClient, inputs: ValueInputs, olds?: Record<string, unknown>): Promise<ValueInputs> {
    // An update's state holds the type; an option field's options are read, since they change.
    const typeHeld = typeof olds?.fieldType === "string" && !optionTypes.has(olds.fieldType) ? olds.fieldType : undefined;
    const field: FieldFacts = typeHeld ? typed(typeHeld) : await fieldOf(client, inputs.customFieldId);
    const problem = misfit(inputs, field.fieldType) ?? (await notAnOption(client, inputs, field));
    if (problem) throw new ServiceError(`${await namedForPeople(client, inputs, field)}: ${problem}`, {});
    return { ...inputs, ...typed(field.fieldType), fieldValue: fittedValue(inputs, field.fieldType) };
  },
  // The type is the field's, known to the inputs of a write and to the state on refresh: no request. An
  // import (or a state imported without it) reads it from the field, as a create does.
  readRelated: async (client: CrmClient, _id: string, declared: Record<string, unknown>, value: ServiceObject) =>
    typed(typeof declared.fieldType === "string" ? declared.fieldType : (await fieldOf(client, fieldIdOf(value))).fieldType),
  adoption: {
    key: (inputs: ValueInputs) => `${inputs.accountId}/${inputs.customFieldId}`,
    describe: (inputs: ValueInputs) => `a value of field ${inputs.customFieldId} for account ${inputs.accountId}`,
    instead: "remove that value first",
    find: findValue,
  },
  // Grouped by account: the service updates only the first item's account.
  bulk: {
    createPath: "/accountCustomFieldData/bulkCreate",
    updatePath: "/accountCustomFieldData/bulkUpdate",
    groupOf: (inputs) => String(inputs.accountId),
    nameOfGroup: (accountId) => `custom field values of account ${accountId}, written together`,
    listGroup: (client, accountId) =>
      walk<ServiceObject>(client, "/accountCustomFieldData", "accountCustomFieldData", { "filters[customerAccountId]": accountId, "orders[id]": "ASC" }),
    listLatest: async (client, accountId, by) => {
      const query = { "filters[customerAccountId]": accountId, [by === "made" ? "orders[id]" : "orders[updatedTimestamp]"]: "DESC" };
      const { items } = await pageOf<ServiceObject>(client, "/accountCustomFieldData", "accountCustomFieldData", query);
      if (!items) throw new PulumiCrmError("the service's answer holds no list of values");
      return items;
    },
    madeHere: (client, accountId) => madeHere(client, "/accounts", accountId),
  },
};

const lifecycle = crmCore(declaration, kind);

/** What `pulumi-crm export` reads of the values (see ../crud/export-declaration.ts): each follows its account. */
const exported: ExportDeclaration = {
  section: "Values of the custom fields",
  part: "data",
  path: kind.path,
  collection: kind.collection!,
  refersTo: declaration.refersTo,
  follows: "accountId",
  // The value's form depends on its field's type, as it does for the resource.
  completedFrom: {
    input: "customFieldId",
    id: fieldIdOf,
    members: (field) => typed(String(field.fieldType)),
  },
  title: (_value, _inputs, names) => `${names.accountId} ${names.customFieldId}`,
};

/**
 * Check, refusing a value outside the field's options when the inputs hold them
 * (fieldOptions). Apart from the kind's refine, which waits for every input: in a first
 * preview the account's and field's ids are unknown, while the value and options are not.
 */
async function checkValue(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Checked> {
  const result = await lifecycle.check(olds, news);
  // The options are stored with the inputs never compared; withoutProvider puts them back in place.
  const inputs = result.inputs && withoutProvider(result.inputs);
  if (!inputs || !Array.isArray(inputs.fieldOptions) || inputs.fieldValue === undefined || containsUnknown([inputs.fieldValue, inputs.fieldOptions]))
    return result;
  // The field's type is not known here: a value names the options of its list or of its `||a||b||`; the write judges it by its type.
  const named = multiValueOf(inputs.fieldValue) ?? (inputs.fieldValue as FieldValue);
  const problem = notAmongOptions(named, inputs.fieldOptions);
  return problem ? { failures: [{ property: "fieldValue", reason: `${label(inputs)}: fieldValue ${problem}.` }] } : result;
}

/**
 * The new value in the form of the stored field type, so that 03/31/2027 and 2027-03-31
 * are no change; a value that does not fit the type fails the preview. Not when the
 * field changes: that replaces the value, and the new field's type is read at creation.
 */
async function diffValue(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Changes> {
  const fieldType = olds.fieldType;
  const comparable = typeof fieldType === "string" && news.customFieldId === olds.customFieldId && !containsUnknown(news);
  return lifecycle.diff(id, olds, comparable ? { ...news, fieldValue: fittedValue(news, fieldType) } : news);
}

const core: CrmCore = { ...lifecycle, check: checkValue, diff: diffValue };

export const accountCustomFieldValue = defineKind("The value of a custom account field for one account.", declaration, core, {
  inputsDeclaring: core.inputsDeclaring,
  exported,
});
