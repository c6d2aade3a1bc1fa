// Pipelines, user groups and users looked up rather than managed, as the contacts' side's
// lookups are (./contact-side.ts: one walk of a collection per program run).

import { strictObject } from "../../kit/inputs";
import type { ServiceObject } from "../service/collection";
import { textOf, timestampOf } from "../service/normalize";
import type { GetByIdOrNameArgs } from "./contact-side";
import { every, type Looked, nameContains, one } from "./named-collections";
import { type LookupOptions, outputForm } from "./kit";

/** A pipeline deals move through. */
export interface PipelineInfo {
  /** The pipeline's id, as `crm.Pipeline`'s `id`. */
  id: string;
  /** The pipeline's title. */
  title: string;
  /** The currency of its new deals, a 3-letter code in lower case. */
  currency: string;
  /** The ids of its stages, in the order the service answers them. */
  stageIds: string[];
  /** When it was created, ISO 8601. */
  cdate: string | null;
}

/** A group of users. */
export interface UserGroupInfo {
  /** The group's id, as `crm.UserGroup`'s `id`. */
  id: string;
  /** The group's title. */
  title: string;
  /** The description; null when unset. */
  description: string | null;
}

/** A user of the account. */
export interface UserInfo {
  /** The user's id, as `crm.User`'s `id`. */
  id: string;
  /** The user's login name. */
  username: string;
  /** The user's email address. */
  email: string;
  /** The user's first name; null when unset. */
  firstName: string | null;
  /** The user's last name; null when unset. */
  lastName: string | null;
}

export interface GetPipelinesArgs {
  /** Only pipelines whose title contains this text, regardless of case. */
  nameContains?: string;
}
export interface GetPipelinesResult {
  /** The pipelines found. */
  pipelines: PipelineInfo[];
}
export interface GetUserGroupsArgs {
  /** Only groups whose title contains this text, regardless of case. */
  nameContains?: string;
}
export interface GetUserGroupsResult {
  /** The groups found. */
  groups: UserGroupInfo[];
}
export interface GetUsersArgs {
  /** Only users whose username contains this text, regardless of case. */
  nameContains?: string;
}
export interface GetUsersResult {
  /** The users found. */
  users: UserInfo[];
}

const pipelines: Looked<PipelineInfo> = {
  what: "pipeline",
  path: "/dealGroups",
  collection: "dealGroups",
  anyCase: false,
  nameOf: (pipeline) => pipeline.title,
  infoOf: (pipeline: ServiceObject) => ({
    id: String(pipeline.id),
    title: String(pipeline.title ?? ""),
    currency: String(pipeline.currency ?? ""),
    stageIds: Array.isArray(pipeline.stages) ? pipeline.stages.map(String) : [],
    cdate: timestampOf(pipeline.cdate),
  }),
};

const groups: Looked<UserGroupInfo> = {
  what: "user group",
  path: "/groups",
  collection: "groups",
  anyCase: false,
  nameOf: (group) => group.title,
  infoOf: (group) => ({ id: String(group.id), title: String(group.title ?? ""), description: textOf(group.descript) }),
};

// Usernames are unique in the account regardless of case.
const users: Looked<UserInfo> = {
  what: "user",
  path: "/users",
  collection: "users",
  anyCase: true,
  nameOf: (user) => user.username,
  alsoBy: { arg: "email", of: (user) => user.email },
  infoOf: (user) => ({
    id: String(user.id),
    username: String(user.username ?? ""),
    email: String(user.email ?? ""),
    firstName: textOf(user.firstName),
    lastName: textOf(user.lastName),
  }),
};

const pipelinesArgs = strictObject({ nameContains }, "the arguments of getPipelines");
const groupsArgs = strictObject({ nameContains }, "the arguments of getUserGroups");
const usersArgs = strictObject({ nameContains }, "the arguments of getUsers");

/** Every pipeline of the account, or those whose title contains a text. */
export async function getPipelines(args: GetPipelinesArgs = {}, opts?: LookupOptions): Promise<GetPipelinesResult> {
  return { pipelines: (await every(pipelines, "getPipelines", pipelinesArgs, args, opts)).found };
}

/** The pipeline with this id or exact title; an error when none or several match. */
export async function getPipeline(args: GetByIdOrNameArgs, opts?: LookupOptions): Promise<PipelineInfo> {
  return one(pipelines, "getPipeline", args, opts);
}

/** Every user group of the account, or those whose title contains a text. */
export async function getUserGroups(args: GetUserGroupsArgs = {}, opts?: LookupOptions): Promise<GetUserGroupsResult> {
  return { groups: (await every(groups, "getUserGroups", groupsArgs, args, opts)).found };
}

/** The user group with this id or exact title; an error when none or several match. */
export async function getUserGroup(args: GetByIdOrNameArgs, opts?: LookupOptions): Promise<UserGroupInfo> {
  return one(groups, "getUserGroup", args, opts);
}

/** Every user of the account, or those whose username contains a text. */
export async function getUsers(args: GetUsersArgs = {}, opts?: LookupOptions): Promise<GetUsersResult> {
  return { users: (await every(users, "getUsers", usersArgs, args, opts)).found };
}

/** Names one user: by its id, its username or its email address. */
export type GetUserArgs =
  | GetByIdOrNameArgs
  | {
      /** Its email address, regardless of case. */
      email: string;
    };

/** The user with this id, username or email address (either regardless of case); an error when there is none. */
export async function getUser(args: GetUserArgs, opts?: LookupOptions): Promise<UserInfo> {
  return one(users, "getUser", args, opts);
}

/** getPipelines taking Outputs: the result is an Output. */
export const getPipelinesOutput = outputForm(getPipelines);
/** getPipeline taking Outputs: the result is an Output. */
export const getPipelineOutput = outputForm(getPipeline);
/** getUserGroups taking Outputs: the result is an Output. */
export const getUserGroupsOutput = outputForm(getUserGroups);
/** getUserGroup taking Outputs: the result is an Output. */
export const getUserGroupOutput = outputForm(getUserGroup);
/** getUsers taking Outputs: the result is an Output. */
export const getUsersOutput = outputForm(getUsers);
/** getUser taking Outputs: the result is an Output. */
export const getUserOutput = outputForm(getUser);
