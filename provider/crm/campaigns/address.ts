// crm.Address: a physical mailing address of the account (every campaign needs one),
// optionally associated with a user group and a list. Its declaration, its
// normalization and its provider live here (see ../crud for the lifecycle).

import { z } from "zod";
import { defineKind } from "../../definition";
import type { ExportDeclaration } from "../crud/export-declaration";
import { declareResource, input, takeOverById } from "../../kit/declaration";
import { givenText, optionalText, requiredText } from "../../kit/inputs";
import { wireForms } from "../../kit/wire";
import { labelBy } from "../../kit/check-diff";
import type { CrmClient } from "../service/client";
import { deleteObject, type ServiceObject } from "../service/collection";
import { crmCore, type CrmKindSpec } from "../crud";
import { idOf } from "../service/normalize";
import * as wire from "../service/wire-forms";

// ISO 3166-1 alpha-2, the codes the service takes.
const countryCodes = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH " +
    "CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN " +
    "GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI " +
    "LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM " +
    "PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD " +
    "TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
  ).split(" "),
);

const int32Max = 2 ** 31 - 1;
const associationId = z
  .string({ invalid_type_error: 'must be a string of digits such as "3"' })
  .refine((id) => /^[1-9]\d{0,9}$/.test(id) && Number(id) <= int32Max, 'must be a positive integer id such as "3"')
  .optional();

const declaration = declareResource({
  namespace: "crm",
  name: "Address",
  inputs: {
    // Requests name the fields in snake_case, as the reference's request schema validates them; answers in camelCase.
    companyName: input(requiredText("the company name shown with the address", 255), "The company name shown with the address; the service requires it.", {
      wire: wire.text({ request: "company_name", answer: "companyName" }),
    }),
    address1: input(requiredText("the first address line", 255), "The first address line.", { wire: wire.text({ request: "address_1", answer: "address1" }) }),
    address2: input(optionalText(255), 'The second address line. Removing it, or setting it to "", clears it.', {
      wire: wire.optionalText({ request: "address_2", answer: "address2" }),
    }),
    city: input(optionalText(255), 'The city. Removing it, or setting it to "", clears it.', { wire: wire.optionalText() }),
    state: input(optionalText(255), 'The state or province. Removing it, or setting it to "", clears it.', { wire: wire.optionalText() }),
    district: input(optionalText(255), 'The district, for countries that use one. Removing it, or setting it to "", clears it.', { wire: wire.optionalText() }),
    zip: input(optionalText(255), 'The postal code. Removing it, or setting it to "", clears it.', { wire: wire.optionalText() }),
    country: input(
      givenText(
        "a 2-letter ISO 3166 country code such as US",
        z
          .string()
          .transform((code) => code.toUpperCase())
          .refine((code) => countryCodes.has(code), "must be a 2-letter ISO 3166 country code such as US or DE"),
      ),
      "A 2-letter ISO 3166 country code such as `US` or `de`, in any case; stored in upper case.",
      // The create's answer holds the country as a number: the address is read back after each write.
      { wire: { read: (code) => String(code).toUpperCase() } },
    ),
    isDefault: input(
      z.boolean({ invalid_type_error: "must be true or false" }).default(false),
      "Whether this is the account's default address. The account has one default address: setting it here unsets it on the previous default.",
      { wire: wire.flag({ request: "is_default", answer: "isDefault" }) },
    ),
    allgroup: input(
      z.boolean({ invalid_type_error: "must be true or false" }).default(false),
      "Whether every user group may use the address (the service's `allgroup`).",
      {
        wire: wire.flag({}, "0/1"),
      },
    ),
    // The associations are made by sending the target's id with the address, and read from the address's links (see readRelated).
    groupId: input(
      associationId,
      'The id of a user group (a `crm.UserGroup`\'s `id`) to associate the address with, e.g. `"3"`. The association is made and removed with the address; a change removes the old one and makes the new one.',
      { refersTo: "user-group", wire: wire.optionalId({ request: "groupid", answer: "groupId" }) },
    ),
    listId: input(
      associationId,
      'The id of a list to associate the address with, e.g. `"7"`. The association is made and removed with the address; a change removes the old one and makes the new one.',
      { refersTo: "list", wire: wire.optionalId({ request: "listid", answer: "listId" }) },
    ),
    adoptId: takeOverById("address", "its fields are set to the declared ones where they differ"),
  },
});

type AddressInputs = z.output<typeof declaration.inputSchema>;

const forms = wireForms(declaration.fields);

/**
 * The two associations: made by sending the target id with the address, listed at the
 * address's link, removed by the association's own id. The service's reference
 * documents only `groupid`; `listid` is taken by the emulator, and a service that
 * ignores it fails the write's confirmation.
 */
const associations = [
  { input: "groupId", request: "groupid", link: "addressGroup", collection: "addressGroups" },
  { input: "listId", request: "listid", link: "addressList", collection: "addressLists" },
] as const;
type Association = (typeof associations)[number];

/** The address's associations of one kind, as the service lists them at the address's link. */
async function associationRows(client: CrmClient, addressId: string, association: Association): Promise<ServiceObject[]> {
  const response = await client.call({ method: "GET", path: `/addresses/${addressId}/${association.link}` }, { accept: [404] });
  if (response.status === 404) return [];
  return ((response.body as Record<string, unknown> | undefined)?.[association.collection] ?? []) as ServiceObject[];
}

/** The ids of the address's associations with `targetId`. */
async function associationIds(client: CrmClient, addressId: string, association: Association, targetId: string): Promise<string[]> {
  const rows = await associationRows(client, addressId, association);
  return rows.filter((row) => idOf(row[association.request]) === targetId).map((row) => String(row.id));
}

/**
 * The address's group and list, as groupId and listId, for `pulumi-crm export` to pass
 * to inputsDeclaring with the address: the first association of each kind, since an
 * Address manages one; others are left alone.
 */
export async function associationsOf(client: CrmClient, addressId: string): Promise<ServiceObject> {
  const related: ServiceObject = {};
  for (const association of associations) {
    const [first] = await associationRows(client, addressId, association);
    if (first) related[association.input] = idOf(first[association.request]);
  }
  return related;
}

/** created_timestamp, "2020-05-24 05:15:17" in the account's time zone, read as if UTC. */
const naiveCreated = (address: ServiceObject) => {
  const ms = Date.parse(`${String(address.created_timestamp ?? "").replace(" ", "T")}Z`);
  return Number.isNaN(ms) ? undefined : ms;
};

const resourceType = declaration.type;

const kind: CrmKindSpec<typeof declaration.inputSchema> = {
  label: labelBy(resourceType, "companyName"),
  path: "/addresses",
  member: "address",
  collection: "addresses",
  // The create answer holds only the fields sent, with the country as a number.
  readBackAfterWrite: true,
  // An association is sent only when it is not there yet: sending it again could add a second one.
  updateBody: (inputs: AddressInputs, olds: Record<string, unknown>) => {
    const body = forms.updateBody(inputs, olds);
    for (const association of associations) if (inputs[association.input] === olds[association.input]) delete body[association.request];
    return body;
  },
  // An import declares the group and list as the export does.
  relatedForImport: associationsOf,
  // Only the associations the stack declares are looked at: others, made elsewhere, are left alone.
  readRelated: async (client: CrmClient, id: string, declared: Record<string, unknown>) => {
    const related: ServiceObject = {};
    for (const association of associations) {
      const targetId = idOf(declared[association.input]);
      const present = targetId !== null && (await associationIds(client, id, association, targetId)).length > 0;
      related[association.input] = present ? targetId : undefined;
    }
    return related;
  },
  // Matched on the text and country sent (flags and associations are not in a list).
  sameContent: (inputs) => {
    const { isDefault: _flag, allgroup: _groupsFlag, groupId: _group, listId: _list, ...sent } = forms.desiredState(inputs);
    return {
      path: "/addresses",
      collection: "addresses",
      sent,
      stateOf: forms.stateOf,
      createdMs: naiveCreated,
      // created_timestamp is in the account's time zone, which the provider does not know.
      uncertaintyMs: 14 * 3600_000,
    };
  },
  afterUpdate: async (client: CrmClient, id: string, olds: Record<string, unknown>, inputs: AddressInputs) => {
    for (const association of associations) {
      const previous = idOf(olds[association.input]);
      if (previous === null || previous === inputs[association.input]) continue;
      for (const associationId of await associationIds(client, id, association, previous)) {
        await deleteObject(client, `/${association.collection}/${associationId}`);
      }
    }
  },
};

const core = crmCore(declaration, kind);

/** What `pulumi-crm export` reads of the addresses (see ../crud/export-declaration.ts). */
const exported: ExportDeclaration = {
  section: "Addresses",
  part: "setup",
  path: kind.path,
  collection: kind.collection!,
  name: (address) => String(address.companyName),
  refersTo: declaration.refersTo,
  // The group and list, which the service keeps behind the address's own links.
  related: (client, address) => associationsOf(client, String(address.id)),
  title: (address) => `${address.companyName} address`,
};

export const address = defineKind("A physical mailing address of the account; every campaign needs one.", declaration, core, {
  inputsDeclaring: core.inputsDeclaring,
  exported,
});
