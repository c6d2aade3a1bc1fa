import assert from "node:assert/strict";
import * as provider from "../../provider/crm/message";
import { emulatorCall } from "../../scripts/harness/emulator";
import { checked, configuration } from "../support/provider-steps";
import { asHostSends } from "../support/host-struct";
import { createBody } from "../support/recording-proxy";
import { describeResource, emptyAccount } from "../support/describe-resource";

const base = { fromname: "Acme News", fromemail: "news@acme.example", reply2: "help@acme.example" };

describeResource(
  {
    type: "crm.Message",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        const declared = { ...base, subject: "Hello %FIRSTNAME%" };
        const message = { fromname: base.fromname, fromemail: base.fromemail, reply2: base.reply2, subject: declared.subject };
        return { id: (await emulatorCall(emulator, "POST", "/api/3/messages", { message })).body.message.id, inputs: declared };
      },
      changes: { subject: "Goodbye %FIRSTNAME%", preheaderText: "See you" },
      updateRoute: "PUT /api/3/messages/:id",
    },
    badInputs: [
      [{ fromemail: "a@acme.example", reply2: "b@acme.example", subject: "Hi" }, "fromname", /^crm\.Message "Hi": fromname is required: the sender's name/],
      [{ ...base, fromname: "" }, "fromname", /fromname must not be blank/],
      [{ ...base, fromemail: "news.acme.example" }, "fromemail", /fromemail must be an email address such as news@example\.com/],
      [{ fromname: "A", fromemail: "a@acme.example" }, "reply2", /reply2 is required: the address replies go to/],
      [{ ...base, reply2: `${"x".repeat(250)}@a.io` }, "reply2", /reply2 must be at most 254 characters/],
      [{ ...base, subject: "s".repeat(256) }, "subject", /subject must be at most 255 characters/],
      [{ ...base, preheaderText: 5 }, "preheaderText", /preheaderText must be a string/],
      [
        { ...base, email: "news@acme.example" },
        "email",
        /email is not a field of this resource; the fields are: fromname, fromemail, reply2, subject, preheaderText/,
      ],
    ],
    roundTrip: {
      inputs: [
        base,
        { ...base, subject: "Hello %FIRSTNAME%, welcome to %LISTNAME%", preheaderText: "Sent on %SUBDATE%" },
        { ...base, subject: "", preheaderText: "Only a preheader" },
      ],
    },
  },
  (service) => {
    it("sends the sender as email and fromemail, keeps merge placeholders as written, and reads fromemail back", async () => {
      const sent = service.proxy.requests.length;
      const subject = "Hi %FIRSTNAME% — %LISTNAME% 100%";
      const created = await provider.create(await checked(provider, { ...base, subject }));
      assert.deepEqual(createBody(service.proxy.requests.slice(sent)), {
        message: { fromname: "Acme News", email: "news@acme.example", fromemail: "news@acme.example", reply2: "help@acme.example", subject },
      });
      const stored = (await emulatorCall(service.emulator, "GET", `/api/3/messages/${created.id}`)).body.message;
      assert.deepEqual([stored.subject, stored.fromemail], [subject, "news@acme.example"]);
      assert.equal(created.outs.subject, subject);
    });

    it("updates each field in place, confirming by a read, and clears the subject and preheader", async () => {
      let inputs: Record<string, unknown> = { ...base, subject: "First", preheaderText: "Pre" };
      const created = await provider.create(await checked(provider, inputs));
      let state = created.outs;
      const steps: Array<Record<string, unknown>> = [
        { fromname: "Acme Team" },
        { fromemail: "team@acme.example" },
        { reply2: "support@acme.example" },
        { subject: "Second %FIRSTNAME%" },
        { preheaderText: "Another" },
        { subject: undefined, preheaderText: undefined },
      ];
      for (const step of steps) {
        inputs = { ...inputs, ...step };
        const news = await checked(provider, inputs);
        assert.deepEqual((await provider.diff(created.id, state, news)).replaces, []);
        const sent = service.proxy.requests.length;
        state = (await provider.update(created.id, state, news)).outs;
        assert.deepEqual(
          service.proxy.requests.slice(sent).map((r) => r.method),
          ["PUT", "GET"],
          "the update's answer is not specified: it is confirmed by a read",
        );
        const read = await provider.read(created.id, state);
        assert.deepEqual(asHostSends(read.props), asHostSends(state));
        assert.deepEqual(asHostSends(read.inputs), asHostSends(configuration(news)));
      }
      const stored = (await emulatorCall(service.emulator, "GET", `/api/3/messages/${created.id}`)).body.message;
      assert.deepEqual(
        [stored.fromname, stored.fromemail, stored.reply2, stored.subject, stored.preheader_text],
        ["Acme Team", "team@acme.example", "support@acme.example", "", ""],
      );
    });

    it("finds drift by read, deletes with DELETE /messages/{id}, and reads a deleted message as gone", async () => {
      const news = await checked(provider, { ...base, subject: "Drift" });
      const created = await provider.create(news);
      await emulatorCall(service.emulator, "PUT", `/api/3/messages/${created.id}`, { message: { subject: "Changed out of band" } });
      const drifted = await provider.read(created.id, created.outs);
      assert.equal(drifted.props?.subject, "Changed out of band");
      assert.equal((await provider.diff(created.id, drifted.props!, news)).changes, true);
      const sent = service.proxy.requests.length;
      await provider.delete(created.id, created.outs);
      assert.deepEqual(
        service.proxy.requests.slice(sent).map((r) => `${r.method} ${r.path}`),
        [`DELETE /api/3/messages/${created.id}`],
      );
      await provider.delete(created.id, created.outs);
      assert.deepEqual(await provider.read(created.id, created.outs), {});
    });
  },
);
