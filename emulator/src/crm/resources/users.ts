import { fieldError, ok, orNoResult, unprocessable, type Attributes } from "../api";
import { matches } from "../collections";
import { collection, id, madeWithTheAccount, text, type CollectionRow, type Form } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { ADMIN_GROUP_ID } from "./groups";
import { ADMIN_USER } from "./shared";
import { crmModule, table } from "../module";

export const usersModule = crmModule({
  tables: { users: table<CollectionRow>() },
  routes: userRoutes,
  // Every account starts with its admin, user 1 (the reference's GET /users/1), in the admins' group.
  seed: ({ users }) => users.put({ ...ADMIN_USER, group: ADMIN_GROUP_ID, password: "", createdMs: madeWithTheAccount, updatedMs: madeWithTheAccount }),
});

/** Taken from requests, never answered: a user's password, and its group (answered behind the userGroup link). */
const unanswered = (form: Form): Form => ({ read: form.read, answer: () => undefined });

/**
 * Users (/users): a username unique in the account that an update cannot change, an email,
 * names, a group (a user group's id) and a password the service never answers. The group is
 * answered behind the userGroup link, and by an update (userGroup, and the userGroups beside it).
 */
function userRoutes(crm: CrmContext): Route[] {
  const { users, groups, configs } = crm.tables;
  const userGroupOf = (user: CollectionRow) => ({ userid: user.id, groupid: user.group, id: user.id, group: user.group, user: user.id });
  const unique = (field: "username" | "email", draft: CollectionRow, existing: CollectionRow | undefined) => {
    if (users.find((row) => row.id !== existing?.id && String(row[field]).toLowerCase() === String(draft[field]).toLowerCase())) {
      throw unprocessable(fieldError("duplicate", field, `A user with the ${field} "${draft[field]}" already exists.`));
    }
  };
  const people = collection<CollectionRow>(crm, {
    singular: "user",
    plural: "users",
    record: "User",
    table: users,
    createStatus: 201,
    fields: {
      username: { required: "The username field is required." },
      email: {
        required: "The email field is required.",
        rule: (value) => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(value)) ? undefined : "The email must be an email address."),
      },
      firstName: {},
      lastName: {},
      group: { form: unanswered(id), default: "0" },
      password: { form: unanswered(text) },
    },
    constants: { phone: "", signature: null },
    links: {
      lists: null,
      userGroup: (user) => ({ userGroup: userGroupOf(user) }),
      dealGroupTotals: null,
      dealGroupUsers: null,
      // The user's settings (configs.ts).
      configs: (user, req) =>
        crm.kinds.relatedMany(
          req,
          "configs",
          configs.where((config) => config.userid === user.id),
        ),
    },
    list: { filters: { username: matches("username"), email: matches("email") } },
    hooks: {
      check(draft, existing) {
        if (existing && draft.username !== existing.username) throw unprocessable(fieldError("field_invalid", "username", "Username cannot be changed."));
        unique("username", draft, existing);
        unique("email", draft, existing);
        if (draft.group !== "0" && !groups.get(String(draft.group)))
          throw unprocessable(fieldError("field_invalid", "group", `No group with id ${draft.group}.`));
      },
      written: (document, row, attrs: Attributes) =>
        attrs.group === undefined
          ? document
          : { userGroups: [userGroupOf(row)], ...document, user: { ...(document.user as Attributes), userGroup: row.group } },
    },
  });
  const by = (field: "email" | "username"): Route => ({
    method: "GET",
    pattern: `/users/${field}/:${field}`,
    handle: (req) => {
      const wanted = decodeURIComponent(req.params[field]).toLowerCase();
      return ok(
        crm.kinds.one(
          req,
          people.kind,
          orNoResult(
            users.find((row) => String(row[field]).toLowerCase() === wanted),
            "User",
            req.params[field],
          ),
        ),
      );
    },
  });
  // The key's user: every key the emulator issues is its account admin's, user 1 (the reference's example).
  const me: Route = {
    method: "GET",
    pattern: "/users/me",
    handle: (req) => ok(crm.kinds.one(req, people.kind, orNoResult(users.get(ADMIN_USER.id), "User", ADMIN_USER.id))),
  };
  return [me, by("email"), by("username"), ...people.routes];
}
