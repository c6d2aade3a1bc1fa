// The definition of a custom field of one kind of the service's objects: crm.AccountCustomField
// (/accountCustomFieldMeta) and crm.DealCustomField (/dealCustomFieldMeta) are twins, alike in
// the reference and in REAL-WORLD.md's notes (flags as 1/0, displayOrder a number,
// fieldDefaultCurrency null, no meta.total). Its declaration, normalization, adoption by label and
// export are made here once per kind; the lifecycle is crmCore's (see ./crud).

import { z } from "zod";
import { defineKind } from "../../definition";
import type { ExportDeclaration } from "./export-declaration";
import { declareResource, input, takeOverById } from "../../kit/declaration";
import { nameText, oneOf } from "../../kit/inputs";
import { labelBy } from "../../kit/check-diff";
import type { CrmClient } from "../service/client";
import { type ServiceObject, walk } from "../service/collection";
import { crmCore, type CrmKindSpec } from "./index";
import { wireForms } from "../../kit/wire";
import {
  currencyCodeInput,
  fieldTypes,
  type FieldValue,
  fieldValueInput,
  fitValue,
  notAmongOptions,
  optionsOf,
  optionTypes,
  valueForService,
  valueFromService,
} from "./custom-field-types";
import { currencyCodeOf } from "../service/normalize";
import * as wire from "../service/wire-forms";

/** The one kind of object a definition collection holds fields of, in the reference's words. */
export interface FieldSubject<Name extends string> {
  /** The resource's name in the crm namespace. */
  name: Name;
  /** "account" or "deal": the collection is /<subject>CustomFieldMeta, its member <subject>CustomFieldMetum. */
  subject: string;
  /** Where the service shows the objects' fields, for the descriptions: "account pages". */
  pages: string;
  /** Where a field's position shows: "account profiles". */
  profiles: string;
  /** The export's section: "Custom account fields". */
  section: string;
  /** What the resource is: its class's doc comment, its schema's and its page's description. */
  description: string;
}

/** The definition of a custom-field resource of one subject, and how a value of such a field reads the field (`fieldStateOf`). */
export function customFieldDefinition<Name extends string>(subject: FieldSubject<Name>) {
  const declaration = declareResource({
    namespace: "crm",
    name: subject.name,
    inputs: {
      fieldLabel: input(
        nameText("the field's label", 255),
        `The field's name on forms and ${subject.pages}, without leading or trailing spaces; one field per label in the CRM account (regardless of case; see \`adoptExisting\`).`,
        { wire: wire.text() },
      ),
      fieldType: input(
        oneOf(fieldTypes),
        "The field's type. The service's update does not take a type, so a change replaces the field, and with it every value of it; with the label unchanged, the old field is deleted first, since the new one takes its label.",
        { replaceOnChanges: true, wire: { ...wire.text(), createOnly: true } },
      ),
      fieldOptions: input(
        z
          .array(
            z
              .string({ invalid_type_error: "must be a string" })
              .min(1, "must not be empty")
              .refine((option) => !option.includes("||"), 'must not hold "||", which the service puts between options'),
            { invalid_type_error: "must be a list of strings" },
          )
          .min(1, "must hold at least one option")
          .refine((options) => new Set(options).size === options.length, "must not repeat an option")
          .optional(),
        'The choices of a dropdown, multiselect, radio or checkbox field, required for those types and refused for the others: each non-empty, distinct, without "||".',
        // Answered as a list or as `||a||b||`.
        { wire: { read: (options) => optionsOf(options) } },
      ),
      fieldDefault: input(
        fieldValueInput("the default").optional(),
        "The default value, in the field type's form: one of `fieldOptions` for dropdown and radio; a list of them for multiselect and checkbox; `YYYY-MM-DD` for date (sent as `YYYY-MM-DD 00:00:00`); `YYYY-MM-DD HH:MM:SS` (UTC) for datetime; a whole amount in minor units (10050 for 100.50) for currency; a number for number; else a string. Removing it clears the default.",
        // In the form of the field's type, both ways; "" clears a default the field has.
        {
          wire: {
            read: (value, field) => valueFromService(String(field.fieldType), value),
            send: (value, inputs) => defaultForService(String(inputs.fieldType), value as FieldValue),
            clearWith: "",
            clearsOnlyHeld: true,
          },
        },
      ),
      fieldDefaultCurrency: input(
        currencyCodeInput.optional(),
        "The 3-letter code (ISO 4217, compared in capitals) of a currency field's default currency; currency fields only. Unset: the service's choice, left alone. The service's update does not take it: setting or removing it replaces the field too.",
        { replaceOnChanges: true, wire: { read: (code) => currencyCodeOf(code) ?? undefined, createOnly: true } },
      ),
      isFormVisible: input(z.boolean({ invalid_type_error: "must be true or false" }).default(false), "Whether the field shows on forms.", {
        wire: wire.flag(),
      }),
      isRequired: input(z.boolean({ invalid_type_error: "must be true or false" }).default(false), "Whether forms require the field.", { wire: wire.flag() }),
      displayOrder: input(
        z
          .number({ invalid_type_error: "must be a whole number from 0" })
          .int("must be a whole number from 0")
          .min(0, "must be a whole number from 0")
          .optional(),
        `Position on the field-management page and ${subject.profiles}. Unset: the service places the field, and the stack leaves its position alone (removing it later does not move the field).`,
        { wire: wire.optionalNumber() },
      ),
      adoptExisting: input(
        z.boolean({ invalid_type_error: "must be true or false" }).default(false),
        "Take over a field that already exists with this label, and that no stack manages, instead of failing. Its type (and default currency, when declared) must match: those cannot change in place.",
      ),
      adoptId: takeOverById(
        "field",
        "its label, options, default, flags and order are set to the declared ones where they differ; its type (and default currency, when declared) must match",
      ),
    },
  });

  const inputSchema = declaration.inputSchema;
  type FieldInputs = z.output<typeof inputSchema>;
  const forms = wireForms(declaration.fields);
  const path = `/${subject.subject}CustomFieldMeta`;
  const collection = `${subject.subject}CustomFieldMeta`;

  /** Rules across fields; the default in its type's one form. */
  function refine(inputs: FieldInputs, refuse: (field: string, rule: string) => void): FieldInputs {
    const { fieldType, fieldOptions, fieldDefault } = inputs;
    const choices = optionTypes.has(fieldType);
    if (choices && !fieldOptions) refuse("fieldOptions", `is required for a ${fieldType} field: the choices it offers`);
    if (!choices && fieldOptions) refuse("fieldOptions", `is only for dropdown, multiselect, radio and checkbox fields, not ${fieldType}`);
    if (inputs.fieldDefaultCurrency && fieldType !== "currency") refuse("fieldDefaultCurrency", `is only for currency fields, not ${fieldType}`);
    if (fieldDefault === undefined) return inputs;
    const fitted = fitValue(fieldType, fieldDefault);
    if ("problem" in fitted) {
      refuse("fieldDefault", fitted.problem);
      return inputs;
    }
    const outside = fieldOptions && notAmongOptions(fitted.value, fieldOptions);
    if (outside) refuse("fieldDefault", outside);
    return { ...inputs, fieldDefault: fitted.value };
  }

  /** Every definition, page by page: the list has no meta.total, so only a short page ends the walk. */
  async function findByLabel(client: CrmClient, label: string): Promise<ServiceObject | undefined> {
    const sameLabel = (field: ServiceObject) => String(field.fieldLabel).toLowerCase() === label.toLowerCase();
    const fields = await walk<ServiceObject>(client, path, collection, {}, sameLabel);
    return fields.find(sameLabel);
  }

  const kind: CrmKindSpec<typeof inputSchema> = {
    label: labelBy(declaration.type, "fieldLabel"),
    refine,
    serviceAssigned: ["displayOrder", "fieldDefaultCurrency"],
    path,
    member: `${subject.subject}CustomFieldMetum`,
    collection,
    adoption: {
      key: (inputs: FieldInputs) => inputs.fieldLabel,
      describe: (inputs: FieldInputs) => `the field label "${inputs.fieldLabel}"`,
      instead: "choose another label",
      find: (client: CrmClient, inputs: FieldInputs) => findByLabel(client, inputs.fieldLabel),
    },
  };

  // Declared once per deployment: checked by both doors (see ../kit/unique-names.ts).
  const core = crmCore(declaration, kind, { field: "fieldLabel", what: "field label" });

  /** What `pulumi-crm export` reads of the fields (see ./export-declaration.ts). */
  const exported: ExportDeclaration = {
    section: subject.section,
    part: "setup",
    path,
    collection,
    name: (field) => String(field.fieldLabel),
    title: (field) => `${field.fieldLabel} field`,
  };

  return {
    ...defineKind(subject.description, declaration, core, { inputsDeclaring: core.inputsDeclaring, exported }),
    /** A field as the service answers it, in this resource's state form: what a value of the field reads of it (its type, options and label). */
    fieldStateOf: (field: ServiceObject) => forms.stateOf(field) as Partial<FieldInputs>,
  };
}

/** The seed gives date defaults as `YYYY-MM-DD HH:MM:SS`. */
function defaultForService(type: string, value: FieldValue): string {
  return type === "date" ? `${value} 00:00:00` : valueForService(value);
}
