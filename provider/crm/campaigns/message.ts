// crm.Message: an email message of the account (sender, reply address, subject,
// preheader). Its declaration, its normalization and its provider live here (see
// ./crud for the lifecycle).

import { z } from "zod";
import { defineKind } from "../../definition";
import type { ExportDeclaration } from "../crud/export-declaration";
import { declareResource, input, takeOverById } from "../../kit/declaration";
import { givenText, optionalText, requiredText } from "../../kit/inputs";
import { labelBy } from "../../kit/check-diff";
import { wireForms } from "../../kit/wire";
import type { ServiceObject } from "../service/collection";
import { crmCore, type CrmKindSpec } from "../crud";
import { textOf } from "../service/normalize";
import { isoCreated } from "../service/recovery";
import * as wire from "../service/wire-forms";

const emailAddress = (what: string) =>
  givenText(what, z.string().max(254, "must be at most 254 characters").email("must be an email address such as news@example.com"));

const declaration = declareResource({
  namespace: "crm",
  name: "Message",
  inputs: {
    fromname: input(requiredText("the sender's name", 255), "The sender's name.", { wire: wire.text() }),
    fromemail: input(emailAddress("the sender's email address"), "The sender's email address.", { wire: wire.text() }),
    reply2: input(emailAddress("the address replies go to"), "The address replies go to.", { wire: wire.text() }),
    subject: input(
      optionalText(255),
      'The subject. Merge placeholders such as `%FIRSTNAME%` or `%LISTNAME%` are kept as written. Removing it, or setting it to "", clears it.',
      { wire: wire.optionalText() },
    ),
    preheaderText: input(optionalText(255), 'The preheader text shown after the subject. Removing it, or setting it to "", clears it.', {
      wire: wire.optionalText({ request: "preheader_text" }),
    }),
    adoptId: takeOverById("message", "its sender, reply address, subject and preheader are set to the declared ones where they differ"),
  },
});

const resourceType = declaration.type;
const forms = wireForms(declaration.fields);

/**
 * The sender travels twice: the reference's request schema requires `email` (its
 * parameter list), while its examples and every response use `fromemail`. The same
 * address under both names is taken whichever name the service reads.
 */
const withSenderAsEmail = (body: Record<string, unknown>) => ({ ...body, email: body.fromemail });

const kind: CrmKindSpec<typeof declaration.inputSchema> = {
  label: labelBy(resourceType, "subject"),
  path: "/messages",
  member: "message",
  // The seed has no list of messages; the reference (and the service) has GET /messages.
  collection: "messages",
  // The update's answer is not specified: what the service holds is read back.
  readBackAfterWrite: true,
  createBody: (inputs) => withSenderAsEmail(forms.createBody(inputs)),
  updateBody: (inputs, olds) => withSenderAsEmail(forms.updateBody(inputs, olds)),
  sameContent: (inputs) => ({
    path: "/messages",
    collection: "messages",
    sent: forms.desiredState(inputs),
    stateOf: forms.stateOf,
    createdMs: isoCreated("cdate"),
  }),
};

const core = crmCore(declaration, kind);

/** What `pulumi-crm export` reads of the messages (see ../crud/export-declaration.ts): named by subject, else sender. */
const messageName = (message: ServiceObject) => textOf(message.subject) ?? String(message.fromname);
const exported: ExportDeclaration = {
  section: "Messages",
  part: "setup",
  path: kind.path,
  collection: kind.collection!,
  name: messageName,
  title: (message) => `${messageName(message)} message`,
};

export const message = defineKind("An email message: its sender, reply address, subject and preheader.", declaration, core, {
  inputsDeclaring: core.inputsDeclaring,
  exported,
});
