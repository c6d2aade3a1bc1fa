// The run operation's request body as the chat seed specifies it (FlowExecutionCreateRequest
// and its Contact objects). Read-only members (notes, tag ids) and undeclared members are dropped.

import {
  anyJson,
  boolean,
  choice,
  DATE_TIME_FORMAT,
  EMAIL_FORMAT,
  integer,
  type JsonObject,
  listOf,
  many,
  nullable,
  object,
  type Parsed,
  string,
  URL_FORMAT,
  UUID_FORMAT,
} from "./fields";

const optionalText = { field: nullable(string()) };
const nameText = { field: nullable(string({ maxLength: 100 })) };
const replaceOrMerge = { field: boolean, default: false };

const contactTag = object({
  name: { field: string({ maxLength: 100 }), required: true },
});

const contact = object({
  phone: { field: string({ maxLength: 30 }) },
  first_name: nameText,
  last_name: nameText,
  email: { field: nullable(string({ maxLength: 254, format: EMAIL_FORMAT })) },
  meta: { field: anyJson },
  external_url: { field: nullable(string({ maxLength: 200, format: URL_FORMAT })) },
  is_deleted: { field: boolean },
  id: { field: string({ format: UUID_FORMAT }) },
  source: { field: string(), default: "website" },
  created_on: { field: string({ format: DATE_TIME_FORMAT }) },
  tags: { field: many(contactTag) },
  external_id: optionalText,
  native_id: optionalText,
  default_assignees: { field: listOf(integer) },
  contact_import: { field: nullable(string({ format: UUID_FORMAT })) },
  default_channel: { field: nullable(integer) },
  wa_id: optionalText,
  overwrite_tags: replaceOrMerge,
  overwrite_default_assignees: replaceOrMerge,
  overwrite_meta: replaceOrMerge,
});

const flowExecutionCreateRequest = object({
  execute_for: { field: choice(["LIST"]), required: true },
  has_priority: { field: boolean, default: false },
  contact_list: { field: many(contact), required: true },
});

export interface FlowExecutionCreate {
  execute_for: "LIST";
  has_priority: boolean;
  contact_list: JsonObject[];
}

/** Members whose form-encoded value is a JSON text (see body.ts). */
export const JSON_FORM_MEMBERS = ["contact_list"] as const;

export function parseFlowExecutionCreate(data: unknown): Parsed<FlowExecutionCreate> {
  // The serializer above guarantees this shape when it accepts the data.
  return flowExecutionCreateRequest(data) as Parsed<FlowExecutionCreate>;
}
