import * as provider from "../../provider/crm/site-tracking-domain";
import { describeNameKeyed } from "../support/name-keyed-suite";

describeNameKeyed(provider, {
  type: "crm.SiteTrackingDomain",
  kind: "site-tracking-domain",
  path: "/siteTrackingDomains",
  member: "siteTrackingDomain",
  names: ["shop.acme.example", "blog.acme.example", "docs.acme.example"],
  badInputs: [
    [{}, "name", /^crm\.SiteTrackingDomain: name is required: the domain's name, such as example\.com/],
    [{ name: " " }, "name", /name must not be blank/],
    [
      { name: "https://shop.acme.example/" },
      "name",
      /name must be a domain name such as example\.com: letters, digits, hyphens and dots, without a scheme, path or port/,
    ],
    [{ name: "shop.acme.example:8080" }, "name", /name must be a domain name/],
    // Labels of 63 characters, the most DNS allows, four of them: 263 characters.
    [{ name: `${`${"a".repeat(63)}.`.repeat(4)}example` }, "name", /name must be at most 253 characters/],
    [{ name: "Shop.Acme.example" }, "name", /^crm\.SiteTrackingDomain "Shop\.Acme\.example": name must be in lower case/],
    [{ name: "shop.acme.example", enabled: true }, "enabled", /enabled is not a field of this resource; the fields are: name, adoptId/],
  ],
});
