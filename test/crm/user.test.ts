import assert from "node:assert/strict";
import * as provider from "../../provider/crm/user";
import { emulatorCall } from "../../scripts/harness/emulator";
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
        const user = {
          username: "grace",
          email: "grace@acme.example",
          firstName: "Grace",
          lastName: "Hopper",
          group: Number(parents.userGroup),
          password: "not declared",
        };
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
      const sent = service.proxy.requests.length;
      assert.equal((await provider.update(created.id, created.outs, news)).outs.password, "another horse");
      // The service never answers a password: what it was sent is all there is to check.
      const put = service.proxy.requests.slice(sent).find((request) => request.method === "PUT");
      assert.equal((put?.body as { user: { password?: string } } | undefined)?.user.password, "another horse");
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

    it("takes the account's admin over by username, and leaves user 1 in place on delete", async () => {
      const admin = (await emulatorCall(service.emulator, "GET", "/api/3/users/1")).body.user;
      const adopted = await provider.create(
        await checked(provider, { username: "admin", email: admin.email, firstName: admin.firstName, lastName: "Renamed", groupId: service.parents.userGroup }),
      );
      assert.equal(adopted.id, "1");
      const after = (await emulatorCall(service.emulator, "GET", "/api/3/users/1")).body.user;
      assert.equal(after.lastName, "Renamed");
      await provider.delete(adopted.id, adopted.outs);
      assert.equal((await emulatorCall(service.emulator, "GET", "/api/3/users/1")).status, 200);
    });

    it("an import from the id alone declares no password", async () => {
      const created = await provider.create(await checked(provider, { ...ada(service.parents.userGroup), password: secret }));
      const imported = await provider.read(created.id, {});
      assert.equal(imported.inputs?.password, undefined);
      assert.equal(imported.inputs?.groupId, service.parents.userGroup);
    });
  },
);
