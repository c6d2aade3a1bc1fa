import { fieldError, unprocessable } from "../api";
import { matches } from "../collections";
import { collection, type Collection, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import { crmModule, table } from "../module";

export const tagsModule = crmModule({ tables: { tags: table<CollectionRow>() }, routes: (crm) => crm.shared(tagCollection).routes });

/** The tags' collection, one per account (crm.shared(tagCollection)): a contact's members make the tags an import names. */
export function tagCollection(crm: CrmContext): Collection<CollectionRow> {
  const { tags, contactTags } = crm.tables;
  return collection<CollectionRow>(crm, {
    singular: "tag",
    plural: "tags",
    record: "Tag",
    table: tags,
    createStatus: 201,
    fields: {
      tag: { required: "The tag field is required." },
      tagType: { allowed: ["contact", "template"], default: "contact" },
      description: {},
    },
    timestamps: { cdate: "created" },
    links: { contactGoalTags: null },
    list: { filters: { search: matches("tag") } },
    // search: the name contains it, as the reference says.
    select: (req, rows) =>
      rows.filter((row) =>
        String(row.tag)
          .toLowerCase()
          .includes((req.query.get("search") ?? "").toLowerCase()),
      ),
    hooks: {
      // Names are unique per type, regardless of case.
      check(draft, existing) {
        const same = (row: CollectionRow) => row.tagType === draft.tagType && String(row.tag).toLowerCase() === String(draft.tag).toLowerCase();
        if (tags.find((row) => row.id !== existing?.id && same(row))) {
          throw unprocessable(fieldError("duplicate", "tag", `A ${draft.tagType} tag named "${draft.tag}" already exists.`));
        }
      },
      members: (row, _req, view) => (view === "single" ? { subscriber_count: String(contactTags.where((ct) => ct.tag === row.id).length) } : {}),
      removed: (row) => contactTags.deleteWhere((ct) => ct.tag === row.id),
    },
  });
}
