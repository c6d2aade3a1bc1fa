import { attributesOf, fieldError, flagOf, ok, optionalString, orNoResult, unprocessable, type Attributes } from "../api";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import type { Row, Table } from "../store";
import { crmModule, table } from "../module";

export interface BrandingRow extends Row {
  groupid: string;
  siteName: string;
  siteLogo: string;
  siteLogoSmall: string;
  headerTextValue: string;
  headerHtmlValue: string;
  footerTextValue: string;
  footerHtmlValue: string;
  copyright: 0 | 1;
  version: 0 | 1;
  license: 0 | 1;
  links: 0 | 1;
  help: string;
  adminTemplateHtm: string;
  adminTemplateCss: string;
  publicTemplateHtm: string;
  publicTemplateCss: string;
  favicon: string | null;
}

export const brandingsModule = crmModule({
  tables: { brandings: table<BrandingRow>() },
  routes: brandingRoutes,
  seed: ({ brandings }) => seedBranding(brandings),
});

const TEXT_FIELDS = [
  "siteName",
  "siteLogo",
  "siteLogoSmall",
  "headerTextValue",
  "headerHtmlValue",
  "footerTextValue",
  "footerHtmlValue",
  "help",
  "adminTemplateHtm",
  "adminTemplateCss",
  "publicTemplateHtm",
  "publicTemplateCss",
] as const;
const FLAG_FIELDS = ["copyright", "version", "license"] as const;
/** "ONLY AVAILABLE FOR CERTAIN PLANS", says the reference. */
const TEMPLATE_FIELDS = ["adminTemplateHtm", "adminTemplateCss", "publicTemplateHtm", "publicTemplateCss"] as const;

/** Every account has its branding; the API cannot create one, so the emulator starts with it. */
function seedBranding(brandings: Table<BrandingRow>): void {
  brandings.insert({
    groupid: "3",
    siteName: "Marketing Automation",
    siteLogo: "https://static.example.com/logo.png",
    siteLogoSmall: "https://static.example.com/logo-small.png",
    headerTextValue: "",
    headerHtmlValue: "",
    footerTextValue: "",
    footerHtmlValue: "",
    copyright: 1,
    version: 1,
    license: 1,
    links: 1,
    help: "1",
    adminTemplateHtm: "",
    adminTemplateCss: "",
    publicTemplateHtm: "",
    publicTemplateCss: "",
    favicon: null,
  });
}

function brandingRoutes(crm: CrmContext): Route[] {
  const { brandings } = crm.tables;
  // Without template editing in the plan, a write setting a template is refused.
  const templateEditing = crm.settings.templateEditing ?? true;

  const kind = crm.kinds.register<BrandingRow>({
    singular: "branding",
    plural: "brandings",
    // Flags come back as "0"/"1" strings; `links` is the external-links flag, not a links object.
    present: (row) => ({
      groupid: row.groupid,
      ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, row[field]])),
      copyright: String(row.copyright),
      version: String(row.version),
      license: String(row.license),
      links: String(row.links),
      favicon: row.favicon,
      id: row.id,
    }),
  });

  const update = (row: BrandingRow, attrs: Attributes): void => {
    const template = TEMPLATE_FIELDS.find((field) => attrs[field] !== undefined);
    if (template && !templateEditing) {
      throw unprocessable(fieldError("field_invalid", template, "Template editing is not included in this account's plan."));
    }
    for (const field of TEXT_FIELDS) if (attrs[field] !== undefined) row[field] = optionalString(attrs, field) ?? "";
    for (const field of FLAG_FIELDS) if (attrs[field] !== undefined) row[field] = flagOf(attrs[field]);
    // "string or null": an empty favicon URL is no favicon.
    if (attrs.favicon !== undefined) row.favicon = optionalString(attrs, "favicon") || null;
    // Documented oddity: leaving `links` out keeps external links on; sending it, with any value, turns them off.
    row.links = "links" in attrs ? 0 : 1;
    // groupid "will always be 3": a sent value is ignored.
  };

  return [
    { method: "GET", pattern: "/brandings", handle: (req) => ok(crm.kinds.list(req, kind, brandings.all())) },
    {
      method: "GET",
      pattern: "/brandings/:id",
      handle: (req) => ok(crm.kinds.one(req, kind, orNoResult(brandings.get(req.params.id), "Branding", req.params.id))),
    },
    {
      method: "PUT",
      pattern: "/brandings/:id",
      handle: (req) => {
        const row = orNoResult(brandings.get(req.params.id), "Branding", req.params.id);
        update(row, attributesOf(req, "branding"));
        return ok(crm.kinds.one(req, kind, row));
      },
    },
  ];
}
