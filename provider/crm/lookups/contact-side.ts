// Lists, tags and contact custom fields looked up rather than managed: those another stack
// or a person manages. Each lookup of a collection in one program run shares one walk of it
// (see ./shared-walks.ts): a run's lookups see the collection as its first lookup read it.

import { z } from "zod";
import { strictObject } from "../../kit/inputs";
import { textOf, timestampOf } from "../service/normalize";
import { type LookupOptions, outputForm } from "./kit";
import { every, type Looked, nameContains, one } from "./named-collections";

/** A list contacts subscribe to. */
export interface ListInfo {
  /** The list's id, as `crm.List`'s `id`. */
  id: string;
  /** The list's name. */
  name: string;
  /** The list's URL-safe name. */
  stringid: string;
  /** The website the list is for; null when unset. */
  senderUrl: string | null;
  /** Why contacts are on the list; null when unset. */
  senderReminder: string | null;
  /** When it was created, ISO 8601. */
  cdate: string | null;
}

/** A tag of contacts or templates. */
export interface TagInfo {
  /** The tag's id, as `crm.Tag`'s `id`. */
  id: string;
  /** The tag's name. */
  tag: string;
  /** What the tag is put on: `contact` or `template`. */
  tagType: string;
  /** The description; null when unset. */
  description: string | null;
  /** When it was created, ISO 8601. */
  cdate: string | null;
}

/** A custom field of contacts. */
export interface ContactCustomFieldInfo {
  /** The field's id, as `crm.ContactCustomField`'s `id`. */
  id: string;
  /** The field's title. */
  title: string;
  /** The field's type, e.g. `dropdown`. */
  type: string;
  /** The tag messages write as `%PERSTAG%` for a contact's value. */
  perstag: string;
  /** The description; null when unset. */
  description: string | null;
  /** The default value; null when unset. */
  defaultValue: string | null;
}

export interface GetListsArgs {
  /** Only lists whose name contains this text, regardless of case. */
  nameContains?: string;
}
export interface GetListsResult {
  /** The lists found. */
  lists: ListInfo[];
}
export interface GetTagsArgs {
  /** Only tags whose name contains this text, regardless of case. */
  nameContains?: string;
  /** Only tags of this type: `contact` or `template`. */
  tagType?: string;
}
export interface GetTagsResult {
  /** The tags found. */
  tags: TagInfo[];
}
export interface GetContactCustomFieldsArgs {
  /** Only fields whose title contains this text, regardless of case. */
  nameContains?: string;
}
export interface GetContactCustomFieldsResult {
  /** The fields found. */
  fields: ContactCustomFieldInfo[];
}

/** Names one object: by its id, or by its name (a tag's name, a field's title). */
export type GetByIdOrNameArgs =
  | {
      /** Its id. */
      id: string;
    }
  | {
      /** Its name: a list's exact name; a tag's name or a field's title, regardless of case. */
      name: string;
    };

const lists: Looked<ListInfo> = {
  what: "list",
  path: "/lists",
  collection: "lists",
  anyCase: false,
  nameOf: (list) => list.name,
  infoOf: (list) => ({
    id: String(list.id),
    name: String(list.name ?? ""),
    stringid: String(list.stringid ?? ""),
    senderUrl: textOf(list.sender_url),
    senderReminder: textOf(list.sender_reminder),
    cdate: timestampOf(list.cdate),
  }),
};

const tags: Looked<TagInfo> = {
  what: "tag",
  path: "/tags",
  collection: "tags",
  anyCase: true,
  nameOf: (tag) => tag.tag,
  infoOf: (tag) => ({
    id: String(tag.id),
    tag: String(tag.tag ?? ""),
    tagType: String(tag.tagType ?? "contact"),
    description: textOf(tag.description),
    cdate: timestampOf(tag.cdate),
  }),
};

const fields: Looked<ContactCustomFieldInfo> = {
  what: "contact custom field",
  path: "/fields",
  collection: "fields",
  anyCase: true,
  nameOf: (field) => field.title,
  infoOf: (field) => ({
    id: String(field.id),
    title: String(field.title ?? ""),
    type: String(field.type ?? ""),
    perstag: String(field.perstag ?? ""),
    description: textOf(field.descript),
    defaultValue: textOf(field.defval),
  }),
};

const listsArgs = strictObject({ nameContains }, "the arguments of getLists");
const tagsArgs = strictObject(
  { nameContains, tagType: z.enum(["contact", "template"], { errorMap: () => ({ message: "must be one of contact, template" }) }).optional() },
  "the arguments of getTags",
);
const fieldsArgs = strictObject({ nameContains }, "the arguments of getContactCustomFields");

/** Every list of the account, or those whose name contains a text. */
export async function getLists(args: GetListsArgs = {}, opts?: LookupOptions): Promise<GetListsResult> {
  return { lists: (await every(lists, "getLists", listsArgs, args, opts)).found };
}

/** The list with this id or exact name; an error when none or several match. */
export async function getList(args: GetByIdOrNameArgs, opts?: LookupOptions): Promise<ListInfo> {
  return one(lists, "getList", args, opts);
}

/** Every tag of the account, or those whose name contains a text, or of one type. */
export async function getTags(args: GetTagsArgs = {}, opts?: LookupOptions): Promise<GetTagsResult> {
  const { found, args: given } = await every(tags, "getTags", tagsArgs, args, opts);
  return { tags: found.filter((tag) => given.tagType === undefined || tag.tagType === given.tagType) };
}

/** The tag with this id or name (regardless of case); an error when none, or several (a contact and a template tag), match. */
export async function getTag(args: GetByIdOrNameArgs, opts?: LookupOptions): Promise<TagInfo> {
  return one(tags, "getTag", args, opts);
}

/** Every custom field of contacts, or those whose title contains a text. */
export async function getContactCustomFields(args: GetContactCustomFieldsArgs = {}, opts?: LookupOptions): Promise<GetContactCustomFieldsResult> {
  return { fields: (await every(fields, "getContactCustomFields", fieldsArgs, args, opts)).found };
}

/** The custom field of contacts with this id or title (regardless of case); an error when there is none. */
export async function getContactCustomField(args: GetByIdOrNameArgs, opts?: LookupOptions): Promise<ContactCustomFieldInfo> {
  return one(fields, "getContactCustomField", args, opts);
}

/** getLists taking Outputs: the result is an Output. */
export const getListsOutput = outputForm(getLists);
/** getList taking Outputs: the result is an Output. */
export const getListOutput = outputForm(getList);
/** getTags taking Outputs: the result is an Output. */
export const getTagsOutput = outputForm(getTags);
/** getTag taking Outputs: the result is an Output. */
export const getTagOutput = outputForm(getTag);
/** getContactCustomFields taking Outputs: the result is an Output. */
export const getContactCustomFieldsOutput = outputForm(getContactCustomFields);
/** getContactCustomField taking Outputs: the result is an Output. */
export const getContactCustomFieldOutput = outputForm(getContactCustomField);
