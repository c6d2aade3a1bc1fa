import assert from "node:assert/strict";
import * as provider from "../../provider/crm/user";
import { emulatorCall } from "../support/emulator";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

const secret = "correct horse battery";
const ada = (groupId: string) => ({ username: "ada", email: "ada@acme.example", firstName: "Ada", lastName: "Lovelace", groupId });

describeResource(
  {
    type: "crm.User",
    provider,
    beforeEach: async (service) => {
      await emptyAccount(service);
      return { userGroup: String((await emulatorCall(service.emulator, "POST", "/api/3/groups", { group: { title: "Reps" } })).body.group.id) };
    },
    adoption: {
      existing: async ({ emulator, parents }) => {
        const user = { username: "grace", email: "grace@acme.example", firstName: "Grace", lastName: "Hopper", group: Number(parents.userGroup), password: "not declared" };
        const id = (await emulatorCall(emulator, "POST", "/api/3/users", { user })).body.user.id;
        return { id, inputs: { username: "grace", email: "grace@acme.example", firstName: "Grace", lastName: "Hopper", groupId: parents.userGroup } };
      },
      changes: { lastName: "Murray Hopper" },
      updateRoute: "PUT /api/3/users/:id",
    },
    badInputs: [
      [{ email: "a@b.example", firstName: "A", lastName: "B", groupId: "1" }, "username", /^crm\.User: username is required: the user's login name/],
      [{ ...ada("1"), email: "ada" }, "email", /^crm\.User "ada": email must be an email address/],
      [{ ...ada("1"), groupId: "reps" }, "groupId", /groupId must be the id of a user group/],
      [{ ...ada("1"), password: "short" }, "password", /password must be at least 8 characters/],
    ],
    roundTrip: { inputs: ({ userGroup }) => [ada(userGroup), { ...ada(userGroup), username: "ada2", email: "ada2@acme.example", password: secret }] },
  },
  (service) => {
    it("sends the password, never reads it back, keeps what it sent, and updates it in place", async () => {
      const created = await provider.create(await checked(provider, { ...ada(service.parents.userGroup), password: secret }));
      const answered = (await emulatorCall(service.emulator, "GET", `/api/3/users/${created.id}`)).body.user;
      assert.equal(JSON.stringify(answered).includes(secret), false);
      assert.equal(created.outs.password, secret);
      assert.equal((await provider.read(created.id, created.outs)).props?.password, secret);
      const news = await checked(provider, { ...ada(service.parents.userGroup), password: "another horse" });
      const changes = await provider.diff(created.id, created.outs, news);
      assert.deepEqual([changes.changes, changes.replaces], [true, []]);
      assert.equal((await provider.update(created.id, created.outs, news)).outs.password, "another horse");
    });

    it("reads its group from the user's userGroup link, finds a move behind its back, and replaces on a new username", async () => {
      const created = await provider.create(await checked(provider, ada(service.parents.userGroup)));
      const other = String((await emulatorCall(service.emulator, "POST", "/api/3/groups", { group: { title: "Admins" } })).body.group.id);
      await emulatorCall(service.emulator, "PUT", `/api/3/users/${created.id}`, { user: { group: Number(other) } });
      const drifted = await provider.read(created.id, created.outs);
      assert.equal(drifted.props?.groupId, other);
      const news = await checked(provider, ada(service.parents.userGroup));
      assert.equal((await provider.diff(created.id, drifted.props!, news)).changes, true);
      assert.deepEqual((await provider.diff(created.id, created.outs, { ...news, username: "ada.l" })).replaces, ["username"]);
    });

    it("is refused the username of the account's admin, naming user 1 and adoptId", async () => {
      await assert.rejects(
        provider.create(await checked(provider, { ...ada(service.parents.userGroup), username: "Admin", email: "other@acme.example" })),
        /the username "Admin" is taken by the existing crm\.User 1 \(usernames are unique regardless of case\)\. To manage that object with this stack, take it over with adoptId: "1"/,
      );
    });

    it("an import from the id alone declares no password", async () => {
      const created = await provider.create(await checked(provider, { ...ada(service.parents.userGroup), password: secret }));
      const imported = await provider.read(created.id, {});
      assert.equal(imported.inputs?.password, undefined);
      assert.equal(imported.inputs?.groupId, service.parents.userGroup);
    });
  },
);
