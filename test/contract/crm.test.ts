// The marketing and CRM service against crm-v3.openapi.json: every operation the seed
// lists that the emulator serves, each with a request the emulator accepts.

import type { Clients, ContractCase } from "./harness";
import { describeContract } from "./harness";
import { ReferenceDocument } from "./reference";

let serial = 0;
/** Names the service requires to be unique, across the cases sharing one emulator. */
const unique = (name: string) => `${name} ${++serial}`;

const newAccount = async ({ crm }: Clients): Promise<string> =>
  (await crm.create("/accounts", { account: { name: unique("Contract Account"), accountUrl: "https://www.example.com" } })).account.id;

const newContact = async ({ crm }: Clients): Promise<string> =>
  (await crm.create("/contacts", { contact: { email: `contract${++serial}@example.com`, firstName: "Ada" } })).contact.id;

const newAccountContact = async (clients: Clients): Promise<string> => {
  const body = { accountContact: { account: Number(await newAccount(clients)), contact: Number(await newContact(clients)), jobTitle: "CEO" } };
  return (await clients.crm.create("/accountContacts", body)).accountContact.id;
};

const textField = () => ({
  accountCustomFieldMetum: { fieldLabel: unique("Contract Field"), fieldType: "text", fieldDefault: "Default Text", isFormVisible: true, displayOrder: 1 },
});
const newField = async ({ crm }: Clients): Promise<string> => (await crm.create("/accountCustomFieldMeta", textField())).accountCustomFieldMetum.id;

const newFieldValue = async (clients: Clients): Promise<string> => {
  const datum = { customerAccountId: Number(await newAccount(clients)), customFieldId: Number(await newField(clients)), fieldValue: "test title" };
  return (await clients.crm.create("/accountCustomFieldData", { accountCustomFieldDatum: datum })).accountCustomFieldDatum.id;
};

/** An account body carrying a custom field value, as the reference's account examples do. */
const accountWithField = async (clients: Clients, name: string) => ({
  account: { name: unique(name), accountUrl: "https://www.example.com", fields: [{ customFieldId: Number(await newField(clients)), fieldValue: "500-1000" }] },
});

const cases: ContractCase[] = [
  {
    operation: "POST /accounts",
    request: async (clients) => ({ body: await accountWithField(clients, "Contract Account") }),
  },
  { operation: "GET /accounts", request: async (clients) => (await newAccount(clients), {}) },
  { operation: "GET /accounts/{id}", request: async (clients) => ({ params: { id: await newAccount(clients) } }) },
  {
    operation: "PUT /accounts/{id}",
    request: async (clients) => ({
      params: { id: await newAccount(clients) },
      body: await accountWithField(clients, "Renamed Account"),
    }),
  },
  { operation: "DELETE /accounts/{id}", request: async (clients) => ({ params: { id: await newAccount(clients) } }) },
  {
    operation: "DELETE /accounts/bulk_delete",
    request: async (clients) => ({ query: `ids[]=${await newAccount(clients)}&ids[]=${await newAccount(clients)}` }),
  },
  {
    operation: "POST /accounts/{id}/notes",
    request: async (clients) => ({ params: { id: await newAccount(clients) }, body: { note: { note: "Note for the account" } } }),
  },
  {
    operation: "PUT /accounts/{id}/notes/{noteid}",
    async request(clients) {
      const id = await newAccount(clients);
      const noteid = (await clients.crm.create(`/accounts/${id}/notes`, { note: { note: "First thoughts" } })).note.id;
      return { params: { id, noteid }, body: { note: { note: "Update with more info" } } };
    },
    excused: { "$.accounts[].links": "the reference's note examples disagree: POST shows no links, PUT shows {notes}; the seed leaves it open" },
  },

  {
    operation: "POST /accountContacts",
    request: async (clients) => ({
      body: { accountContact: { account: Number(await newAccount(clients)), contact: Number(await newContact(clients)), jobTitle: "Product Manager" } },
    }),
  },
  {
    operation: "GET /accountContacts",
    request: async (clients) => (await newAccountContact(clients), {}),
  },
  { operation: "GET /accountContacts/{id}", request: async (clients) => ({ params: { id: await newAccountContact(clients) } }) },
  {
    operation: "PUT /accountContacts/{id}",
    async request(clients) {
      const id = await newAccountContact(clients);
      const current = (await clients.crm.send("GET", `/accountContacts/${id}`)).body as { accountContact: { account: string; contact: string } };
      const { account, contact } = current.accountContact;
      return { params: { id }, body: { accountContact: { account: Number(account), contact: Number(contact), jobTitle: "CTO" } } };
    },
  },
  { operation: "DELETE /accountContacts/{id}", request: async (clients) => ({ params: { id: await newAccountContact(clients) } }) },

  { operation: "POST /accountCustomFieldMeta", request: () => ({ body: textField() }) },
  {
    operation: "GET /accountCustomFieldMeta",
    request: async (clients) => (await newField(clients), {}),
    excused: { "$.accountCustomFieldMeta[].fieldDefault": "the seed: a string (an array for multiselect and checkbox); the reference's list example shows 1" },
  },
  { operation: "GET /accountCustomFieldMeta/{id}", request: async (clients) => ({ params: { id: await newField(clients) } }) },
  {
    operation: "PUT /accountCustomFieldMeta/{id}",
    request: async (clients) => ({
      params: { id: await newField(clients) },
      body: { accountCustomFieldMetum: { fieldLabel: unique("Renamed Field"), fieldDefault: "Other Text", isFormVisible: false, displayOrder: 2 } },
    }),
  },
  { operation: "DELETE /accountCustomFieldMeta/{id}", request: async (clients) => ({ params: { id: await newField(clients) } }) },

  {
    operation: "POST /accountCustomFieldData",
    request: async (clients) => ({
      body: {
        accountCustomFieldDatum: { customerAccountId: Number(await newAccount(clients)), customFieldId: Number(await newField(clients)), fieldValue: "test title" },
      },
    }),
  },
  {
    operation: "POST /accountCustomFieldData/bulkCreate",
    async request(clients) {
      const customerAccountId = Number(await newAccount(clients));
      const fields = [Number(await newField(clients)), Number(await newField(clients))];
      return { body: fields.map((customFieldId) => ({ customerAccountId, customFieldId, fieldValue: "bulk value" })) };
    },
  },
  { operation: "GET /accountCustomFieldData/{id}", request: async (clients) => ({ params: { id: await newFieldValue(clients) } }) },
  {
    operation: "PUT /accountCustomFieldData/{id}",
    request: async (clients) => ({ params: { id: await newFieldValue(clients) }, body: { accountCustomFieldDatum: { fieldValue: "New title" } } }),
  },
  {
    operation: "PATCH /accountCustomFieldData/bulkUpdate",
    request: async (clients) => ({
      body: [
        { id: Number(await newFieldValue(clients)), fieldValue: "updated one" },
        { id: Number(await newFieldValue(clients)), fieldValue: "updated two" },
      ],
    }),
  },
  { operation: "DELETE /accountCustomFieldData/{id}", request: async (clients) => ({ params: { id: await newFieldValue(clients) } }) },
];

describeContract("contract: marketing and CRM service", new ReferenceDocument("crm-v3.openapi.json"), "crm", cases);
