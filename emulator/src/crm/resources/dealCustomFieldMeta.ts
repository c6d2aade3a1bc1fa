import type { CrmContext } from "../context";
import type { Route } from "../router";
import { fieldMetaCollection, type FieldMetaRow } from "./customFieldMeta";
import { linkRoutes, noneHeld } from "./shared";
import { crmModule, table } from "../module";

export const dealCustomFieldMetaModule = crmModule({ tables: { dealFieldMeta: table<FieldMetaRow>() }, routes: dealCustomFieldMetaRoutes });

/** Deal custom-field definitions (the reference's /dealCustomFieldMeta): the account fields' twin; their values are not served. */
function dealCustomFieldMetaRoutes(crm: CrmContext): Route[] {
  const { find, routes } = fieldMetaCollection(crm, { subject: "deal", table: crm.tables.dealFieldMeta });
  return [...routes, ...linkRoutes("dealCustomFieldMeta", find, noneHeld(["dealCustomFieldData"]))];
}
