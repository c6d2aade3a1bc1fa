// crm.SiteTrackingDomain: a domain site tracking is allowed on (/siteTrackingDomains), known
// by its name alone (see ../crud/name-keyed.ts).

import { z } from "zod";
import { input } from "../../kit/declaration";
import { givenText } from "../../kit/inputs";
import { nameKeyed } from "../crud/name-keyed";

// Labels of letters, digits and inner hyphens, joined by dots: a host's name as DNS has it.
const label = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const domainName = new RegExp(`^${label}(?:\\.${label})*$`);

export const siteTrackingDomain = nameKeyed({
  description: "A domain site tracking is allowed on.",
  name: "SiteTrackingDomain",
  member: "siteTrackingDomain",
  what: "site tracking domain",
  named: input(
    givenText(
      "the domain's name, such as example.com",
      z
        .string()
        .max(253, "must be at most 253 characters")
        .refine((name) => name === name.toLowerCase(), "must be in lower case, as the service lists it")
        .refine(
          (name) => domainName.test(name.toLowerCase()),
          "must be a domain name such as example.com: letters, digits, hyphens and dots, without a scheme, path or port",
        ),
    ),
    "The domain's name, such as `example.com`: its id. A new name replaces the domain.",
  ),
});
