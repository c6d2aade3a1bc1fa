// crm.Connection: the account's connection to an external service (a store, an app), as an
// integration registers it (the reference's /connections). Its declaration; the rest is
// plainKind's (see ../crud/plain-kind.ts).

import { plainKind } from "../crud/plain-kind";
import { input } from "../../kit/declaration";
import { requiredText, webAddress } from "../../kit/inputs";
import * as wire from "../service/wire-forms";

export const connection = plainKind({
  description: "A connection of the account to an external service, such as a store, as an integration registers it.",
  name: "Connection",
  noun: "connection",
  namedBy: "name",
  inputs: {
    service: input(requiredText("the external service's name", 255), "The external service's name, such as `shopify`.", { wire: wire.text() }),
    externalId: input(requiredText("the account's id in the external service", 255), "The account's id in the external service, such as `foo.myshopify.com`.", {
      wire: wire.text({ request: "externalid", answer: "externalid" }),
    }),
    name: input(requiredText("the account's name in the external service", 255), "The account's name in the external service, often a company's.", {
      wire: wire.text(),
    }),
    logoUrl: input(webAddress("the URL of the external service's logo"), "The http(s) URL of the external service's logo.", { wire: wire.text() }),
    linkUrl: input(
      webAddress("the URL where the integration is managed"),
      "The http(s) URL of the page where the integration is managed on the external service.",
      {
        wire: wire.text(),
      },
    ),
  },
});
