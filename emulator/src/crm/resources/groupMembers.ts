import { ApiError, bareAttributesOf, fieldError, idOf, noResultFound, notFound, ok, unprocessable, type Attributes, type CrmRequest } from "../api";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import type { Row } from "../store";
import type { Timestamps } from "../state";
import { crmModule, table } from "../module";

export interface GroupMemberRow extends Row, Timestamps {
  group_id: string;
  rel_id: string;
  ordernum: number;
}

/**
 * Custom fields in field groups. The reference has no operation on the groups themselves
 * (groupDefinitions): every account starts with group 1, the one all its examples use.
 */
export const groupMembersModule = crmModule({
  tables: { groupDefinitions: table<Row>(), groupMembers: table<GroupMemberRow>() },
  routes: groupMemberRoutes,
  seed: ({ groupDefinitions }) => groupDefinitions.put({ id: "1" }),
});

/** The reference's answer to a create or an update whose rel_id is left blank: the 403 of the service behind it, passed on. */
const REL_ID_BLANK = new ApiError({
  status: 403,
  body: {
    message:
      'Client error: `POST https://escape-velocity-grouper.cluster-private.app-us1.com/member` resulted in a `400 Bad Request` response:\n{"message": {"rel_id": "rel_id is required"}}\n\n',
  },
});

const blank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/**
 * A custom field's place in a field group (/groupMembers): rel_id (the field's id), group_id
 * (the group's) and ordernum, all answered as numbers, as the reference's examples do; an
 * ordernum null or not sent puts it after the group's last (from 1). The path's {groupID}
 * (and the update's {groupId}) is the member's id: its read answers that one member. The
 * reference's refusals: a blank rel_id 403 with the message above, an unknown group 404
 * "No Result found for GroupDefinition with id 94", an unknown member 404 {errors: [{status,
 * title}]}. Where it is silent: which kind of custom field rel_id names depends on the group
 * (contact, deal or account fields), which the reference does not give, so any id is taken;
 * a missing group_id is the service's 422 field_missing; a field in one group twice is
 * refused 422 duplicate, as the emulator's other links are. There is no list. The create
 * and the update add created_by and updated_by (the admin) to what a read answers.
 */
function groupMemberRoutes(crm: CrmContext): Route[] {
  const { groupDefinitions, groupMembers } = crm.tables;
  const kind = crm.kinds.register<GroupMemberRow>({
    singular: "groupMember",
    plural: "groupMembers",
    present: (row, req) => ({
      id: Number(row.id),
      group_id: Number(row.group_id),
      rel_id: Number(row.rel_id),
      ordernum: row.ordernum,
      links: { groupDefinition: `${req.baseUrl}/groupDefinitions/${row.group_id}` },
    }),
  });
  const find = (id: string): GroupMemberRow => {
    const row = groupMembers.get(id);
    if (!row) throw notFound();
    return row;
  };
  const idSent = (attrs: Attributes, name: string): string => {
    const value = idOf(attrs[name]);
    if (value === null) throw unprocessable(fieldError("field_invalid", name, `The ${name} must be an integer id.`));
    return value;
  };

  /** The member as the attributes leave it (existing: on update, where what is not sent stays). */
  const draftOf = (attrs: Attributes, existing?: GroupMemberRow): Omit<GroupMemberRow, "id" | keyof Timestamps> => {
    if ((existing === undefined || attrs.rel_id !== undefined) && blank(attrs.rel_id)) throw REL_ID_BLANK;
    if (existing === undefined && blank(attrs.group_id)) throw unprocessable(fieldError("field_missing", "group_id", "The group_id field is required."));
    const rel_id = attrs.rel_id === undefined ? existing!.rel_id : idSent(attrs, "rel_id");
    const group_id = attrs.group_id === undefined ? existing!.group_id : idSent(attrs, "group_id");
    if (!groupDefinitions.get(group_id)) throw noResultFound("GroupDefinition", group_id);
    if (groupMembers.find((row) => row.id !== existing?.id && row.group_id === group_id && row.rel_id === rel_id)) {
      throw unprocessable(fieldError("duplicate", "rel_id", `Field ${rel_id} is in group ${group_id} already.`));
    }
    const last = () => Math.max(0, ...groupMembers.where((row) => row.group_id === group_id && row.id !== existing?.id).map((row) => row.ordernum));
    let ordernum: number;
    if (attrs.ordernum === undefined && existing) ordernum = existing.group_id === group_id ? existing.ordernum : last() + 1;
    else if (blank(attrs.ordernum)) ordernum = last() + 1;
    else {
      ordernum = Number(attrs.ordernum);
      if (!Number.isInteger(ordernum) || ordernum < 0)
        throw unprocessable(fieldError("field_invalid", "ordernum", "The ordernum must be a whole number, or null."));
    }
    return { group_id, rel_id, ordernum };
  };
  const written = (req: CrmRequest, row: GroupMemberRow) => ok({ groupMember: { ...kind.present(row, req, "single"), created_by: 1, updated_by: 1 } });

  return [
    {
      method: "POST",
      pattern: "/groupMembers",
      handle: (req) => {
        const now = crm.now();
        return written(req, groupMembers.insert({ ...draftOf(bareAttributesOf(req, "groupMember")), createdMs: now, updatedMs: now }));
      },
    },
    { method: "GET", pattern: "/groupMembers/:groupID", handle: (req) => ok(crm.kinds.one(req, kind, find(req.params.groupID))) },
    {
      method: "PUT",
      pattern: "/groupMembers/:groupId",
      handle: (req) => {
        const row = find(req.params.groupId);
        return written(req, groupMembers.update(row, { ...draftOf(bareAttributesOf(req, "groupMember"), row), updatedMs: crm.now() }));
      },
    },
    {
      method: "DELETE",
      pattern: "/groupMembers/:groupID",
      handle: (req) => {
        groupMembers.delete(find(req.params.groupID).id);
        return ok({});
      },
    },
    // Where a member's groupDefinition link leads: the reference describes no such read, so the group answers only its id.
    {
      method: "GET",
      pattern: "/groupDefinitions/:id",
      handle: (req) => {
        const group = groupDefinitions.get(req.params.id);
        if (!group) throw noResultFound("GroupDefinition", req.params.id);
        return ok({ groupDefinition: { id: Number(group.id) } });
      },
    },
  ];
}
