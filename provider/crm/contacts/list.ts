// crm.List: a list contacts subscribe to. The service has no update of a list (the
// reference's /lists/{id} is read and delete only): every change replaces it. Its
// declaration; the rest is plainKind's (see ../crud/plain-kind.ts).

import { z } from "zod";
import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { givenText, optionalText, requiredText, webAddress } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

const urlSafe = givenText(
  "the list's URL-safe name",
  z.string().regex(/^[A-Za-z0-9_-]{1,255}$/, "must be 1 to 255 letters, digits, - or _, such as monthly-news"),
);
const replaces = { replaceOnChanges: true };

export const list = plainKind({
  description: "A list contacts subscribe to; every change replaces it (the service cannot update a list).",
  name: "List",
  noun: "list",
  namedBy: "name",
  exported: { lookup: "getList" },
  inputs: {
    name: input(requiredText("the list's name", 255), "The list's name.", { ...replaces, wire: wire.text() }),
    stringid: input(urlSafe, "The list's URL-safe name, e.g. `monthly-news`.", { ...replaces, wire: wire.text() }),
    senderUrl: input(webAddress("the website the list is for"), "The website the list is for, an http(s) URL.", {
      ...replaces,
      wire: wire.text({ request: "sender_url" }),
    }),
    senderReminder: input(requiredText("why contacts are on the list", 1000), "Why contacts are on the list, shown in every message to them.", {
      ...replaces,
      wire: wire.text({ request: "sender_reminder" }),
    }),
    sendLastBroadcast: input(
      z.boolean({ invalid_type_error: "must be true or false" }).default(false),
      "Whether a new subscriber gets the last campaign sent to the list.",
      {
        ...replaces,
        wire: wire.flag({ request: "send_last_broadcast" }),
      },
    ),
    subscriptionNotify: input(optionalText(1000), "Comma-separated addresses told of each new subscriber.", {
      ...replaces,
      wire: wire.optionalText({ request: "subscription_notify" }),
    }),
    unsubscriptionNotify: input(optionalText(1000), "Comma-separated addresses told of each unsubscription.", {
      ...replaces,
      wire: wire.optionalText({ request: "unsubscription_notify" }),
    }),
  },
});
