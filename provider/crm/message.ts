// crm.Message: an email message of the account (sender, reply address, subject,
// preheader). Its declaration, its normalization and its provider live here (see
// ./crud for the lifecycle).

import { z } from "zod";
import { dynamicClass, dynamicLifecycle } from "../dynamic";
import type { ExportDeclaration } from "../export/declaration";
import { declareResource, input, takeOverById } from "../kit/declaration";
import { givenText, optionalText, requiredText, withoutUndefined } from "../kit/inputs";
import { labelBy } from "../kit/check-diff";
import { ServiceObject } from "./collection";
import { crmCore, CrmKindSpec } from "./crud";
import { optionalTextOf, textOf } from "./normalize";
import { isoCreated } from "./recovery";
import type { MessageArgs, MessageOutputs } from "./generated-types";

export type { MessageArgs, MessageOutputs } from "./generated-types";

const emailAddress = (what: string) =>
  givenText(what, z.string().max(254, "must be at most 254 characters").email("must be an email address such as news@example.com"));

export const declaration = declareResource({
  namespace: "crm",
  name: "Message",
  inputs: {
    fromname: input(requiredText("the sender's name", 255), "The sender's name."),
    fromemail: input(emailAddress("the sender's email address"), "The sender's email address."),
    reply2: input(emailAddress("the address replies go to"), "The address replies go to."),
    subject: input(
      optionalText(255),
      "The subject. Merge placeholders such as `%FIRSTNAME%` or `%LISTNAME%` are kept as written. Removing it, or setting it to \"\", clears it.",
    ),
    preheaderText: input(optionalText(255), "The preheader text shown after the subject. Removing it, or setting it to \"\", clears it."),
    adoptId: takeOverById("message", "its sender, reply address, subject and preheader are set to the declared ones where they differ"),
  },
});

export const inputSchema = declaration.inputSchema;

type MessageInputs = z.output<typeof inputSchema>;

interface MessageState extends Record<string, unknown> {
  fromname: string;
  fromemail: string;
  reply2: string;
  subject?: string;
  preheaderText?: string;
}

const resourceType = declaration.type;

/**
 * The sender travels twice: the reference's request schema requires `email` (its
 * parameter list), while its examples and every response use `fromemail`. The same
 * address under both names is taken whichever name the service reads.
 */
const senderFields = (inputs: MessageInputs) => ({ fromname: inputs.fromname, email: inputs.fromemail, fromemail: inputs.fromemail, reply2: inputs.reply2 });

const kind: CrmKindSpec<typeof inputSchema, MessageState> = {
  label: labelBy(resourceType, "subject"),
  path: "/messages",
  member: "message",
  // The seed has no list of messages; the reference (and the service) has GET /messages.
  collection: "messages",
  // The update's answer is not specified: what the service holds is read back.
  readBackAfterWrite: true,
  stateOf: (message: ServiceObject) => ({
    fromname: String(message.fromname),
    fromemail: String(message.fromemail),
    reply2: String(message.reply2),
    subject: optionalTextOf(message.subject),
    preheaderText: optionalTextOf(message.preheader_text),
  }),
  desiredState: ({ adoptId: _creationOnly, ...inputs }: MessageInputs) => ({ ...inputs, subject: inputs.subject ?? null, preheaderText: inputs.preheaderText ?? null }),
  createBody: (inputs: MessageInputs) =>
    withoutUndefined({ ...senderFields(inputs), subject: inputs.subject, preheader_text: inputs.preheaderText }),
  // PUT is partial: a subject or preheader no longer set is cleared with "".
  updateBody: (inputs: MessageInputs) => ({ ...senderFields(inputs), subject: inputs.subject ?? "", preheader_text: inputs.preheaderText ?? "" }),
  sameContent: (inputs) => ({ path: "/messages", collection: "messages", sent: kind.desiredState(inputs), stateOf: kind.stateOf, createdMs: isoCreated("cdate") }),
};

export const core = crmCore(declaration, kind);
export const { inputsDeclaring } = core;
export const { check, diff, create, read, update, delete: remove } = dynamicLifecycle(core);

/** What `pulumi-crm export` reads of the messages (see ../export/declaration.ts): named by subject, else sender. */
const messageName = (message: ServiceObject) => textOf(message.subject) ?? String(message.fromname);
export const exported: ExportDeclaration = {
  section: "Messages",
  path: kind.path,
  collection: kind.collection!,
  name: messageName,
  title: (message) => `${messageName(message)} message`,
};
export { remove as delete };
export { configure } from "../dynamic";

export interface Message extends MessageOutputs {}

/** An email message: its sender, reply address, subject and preheader. */
export class Message extends dynamicClass<MessageArgs>(module, core) {}
