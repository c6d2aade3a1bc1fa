import assert from "node:assert/strict";
import * as provider from "../../provider/crm/branding";
import { unknownValue } from "../../provider/kit/inputs";
import { releaseNaturalKey } from "../../provider/kit/adoption";
import { CrmClient } from "../../provider/crm/service/client";
import { useStackConfig } from "../../provider/settings";
import { startEmulator } from "../../emulator";
import { configOf, emulatorCall, type RunningEmulator } from "../../scripts/harness/emulator";
import { checked, configuration, failuresOf, providerCode } from "../support/provider-steps";
import { asHostSends } from "../support/host-struct";
import { type ScriptedServer, sendJson, startScriptedServer } from "../support/scripted-server";
import { describeResource, emptyAccount } from "../support/describe-resource";

/** The account's one branding, as the service holds it. */
const brandingOf = async (emulator: RunningEmulator) => (await emulatorCall(emulator, "GET", "/api/3/brandings/1")).body.branding;

/** The branding as each test found it, before it took the branding over. */
let brandingAtStart: Record<string, unknown>;

describeResource(
  {
    type: "crm.Branding",
    provider,
    // Each test takes the account's one branding over afresh, as a new deployment would.
    beforeEach: async (service) => {
      await emptyAccount(service);
      const { emulator } = service;
      releaseNaturalKey(new CrmClient("test"), "crm.Branding", "1");
      brandingAtStart = await brandingOf(emulator);
    },
    adoption: {
      existing: async ({ emulator }) => {
        const { siteName, siteLogo, favicon } = await brandingOf(emulator);
        return { id: "1", inputs: { siteName, siteLogo, favicon: favicon ?? "" } };
      },
      changes: { siteName: "Taken over", externalLinks: false },
      updateRoute: "PUT /api/3/brandings/:id",
      unknownId: "9",
    },
    badInputs: [
      [{ brandingId: "first" }, "brandingId", /^crm\.Branding: brandingId must be a branding id such as "1"/],
      [{ brandingId: "2", siteName: "x".repeat(256) }, "siteName", /^crm\.Branding 2: siteName must be at most 255 characters/],
      [{ siteLogo: "logo.png" }, "siteLogo", /siteLogo must be an http or https URL such as https:\/\/example\.com\/logo\.png, or "" for none/],
      [{ favicon: "ftp://x.example/f.ico" }, "favicon", /favicon must be an http or https URL/],
      [{ headerHtmlValue: 7 }, "headerHtmlValue", /headerHtmlValue must be a string/],
      [{ externalLinks: "no" }, "externalLinks", /externalLinks must be true or false/],
      [{ links: false }, "links", /links is not a field of this resource; the fields are: brandingId, siteName/],
    ],
    roundTrip: {
      inputs: [
        {},
        { siteName: "Acme Marketing", externalLinks: false },
        { brandingId: "1", favicon: "https://acme.example/favicon.ico", siteLogo: "" },
        {
          siteName: "Acme",
          siteLogo: "https://acme.example/logo.png",
          siteLogoSmall: "https://acme.example/logo-small.png",
          headerTextValue: "Acme header",
          headerHtmlValue: "<p>Acme header</p>",
          footerTextValue: "Acme footer",
          footerHtmlValue: "<p>Acme footer</p>",
          help: "0",
          favicon: "",
          adminTemplateHtm: "<div>%CONTENT%</div>",
          adminTemplateCss: "div { color: green; }",
          publicTemplateHtm: "<main>%CONTENT%</main>",
          publicTemplateCss: "main { color: navy; }",
          externalLinks: true,
        },
      ],
      title: ", takes the branding over, and destroy restores it",
      created: (created, inputs) => {
        assert.equal(created.id, "1");
        const managed = Object.keys(inputs).filter((field) => field !== "brandingId" && field !== "externalLinks");
        for (const field of managed) assert.equal(created.outs[field], inputs[field], field);
        assert.deepEqual(created.outs.originalValues, Object.fromEntries([...managed.map((f) => [f, brandingAtStart[f] ?? ""]), ["externalLinks", true]]));
      },
      then: async (created, _inputs, { emulator }) => {
        await provider.delete(created.id, created.outs);
        assert.deepEqual(await brandingOf(emulator), brandingAtStart);
      },
    },
  },
  (service) => {
    const useService = (url: string, token: string) => useStackConfig(configOf({ "crm:apiUrl": url, "crm:apiToken": token, "crm:requestsPerSecond": "0" }));
    const branding = () => brandingOf(service.emulator);

    it("adoptId: refused beside a brandingId that names another branding", async () => {
      assert.match(
        (await failuresOf(provider, { adoptId: "1", brandingId: "2" })).adoptId,
        /adoptId names branding 1, brandingId another \(2\); give one of them/,
      );
    });

    it("manages only the fields set: externalLinks defaults to true, nothing else is added", async () => {
      assert.deepEqual(asHostSends(await checked(provider, { siteName: "Ours" })), { siteName: "Ours", externalLinks: true, __provider: providerCode });
    });

    const olds = { siteName: "Ours", externalLinks: true, originalValues: { siteName: "Theirs", externalLinks: true }, __provider: "old code" };
    it("changes a set field when its value does, and a field no longer set when the stack manages it", async () => {
      const same = await checked(provider, { siteName: "Ours" });
      assert.equal((await provider.diff("1", olds, { ...same, __provider: "new code" })).changes, false);
      assert.equal((await provider.diff("1", olds, await checked(provider, { siteName: "Other" }))).changes, true);
      assert.equal((await provider.diff("1", olds, await checked(provider, { siteName: "Ours", favicon: "" }))).changes, true);
      assert.equal((await provider.diff("1", olds, await checked(provider, {}))).changes, true, "siteName is put back");
      assert.equal((await provider.diff("1", olds, await checked(provider, { siteName: "Ours", externalLinks: false }))).changes, true);
      assert.equal((await provider.diff("1", olds, await checked(provider, { siteName: unknownValue }))).changes, true);
    });

    it("replaces only when brandingId names another branding than the one managed", async () => {
      assert.deepEqual((await provider.diff("1", olds, await checked(provider, { siteName: "Ours", brandingId: "1" }))).replaces, []);
      assert.deepEqual((await provider.diff("1", olds, await checked(provider, { siteName: "Ours", brandingId: "2" }))).replaces, ["brandingId"]);
    });

    it("remembers a field when the stack first manages it, puts back a field it stops managing, and destroy restores every one exactly", async () => {
      await emulatorCall(service.emulator, "PUT", "/api/3/brandings/1", { branding: { headerTextValue: "Theirs", links: 1 } });
      const found = await branding();
      const created = await provider.create(await checked(provider, { siteName: "Ours 1", externalLinks: true }));
      let state = created.outs;
      const ups: Array<Record<string, unknown>> = [
        { siteName: "Ours 2", externalLinks: true },
        { siteName: "Ours 2", headerTextValue: "Our header", favicon: "https://acme.example/f.ico", externalLinks: false },
        { siteName: "Ours 3", headerTextValue: "Our header 2", externalLinks: false },
        { headerTextValue: "Our header 3" },
      ];
      for (const inputs of ups) {
        const news = await checked(provider, inputs);
        assert.equal((await provider.diff("1", state, news)).changes, true, JSON.stringify(inputs));
        state = (await provider.update("1", state, news)).outs;
        const read = await provider.read("1", state);
        assert.deepEqual(asHostSends(read.props), asHostSends(state), JSON.stringify(inputs));
        assert.deepEqual(asHostSends(read.inputs), asHostSends(configuration(news)), JSON.stringify(inputs));
      }
      const now = await branding();
      assert.deepEqual([now.siteName, now.favicon, now.headerTextValue, now.links], [found.siteName, found.favicon, "Our header 3", "1"]);
      assert.deepEqual(state.originalValues, { headerTextValue: "Theirs", externalLinks: false });

      await provider.delete("1", state);
      assert.deepEqual(await branding(), found);
    });

    it("turns external links off and on again: off by sending links, on by leaving it out", async () => {
      const sent = service.proxy.requests.length;
      const created = await provider.create(await checked(provider, { externalLinks: false }));
      assert.equal((await branding()).links, "0");
      const updated = await provider.update("1", created.outs, await checked(provider, { externalLinks: true }));
      assert.equal(updated.outs.externalLinks, true);
      assert.equal((await branding()).links, "1");
      const bodies = service.proxy.requests
        .slice(sent)
        .filter((r) => r.method === "PUT")
        .map((r) => (r.body as { branding: unknown }).branding);
      assert.deepEqual(bodies, [{ links: false }, {}]);
    });

    it("finds drift of managed fields only, and reads a branding that is gone as gone", async () => {
      const news = await checked(provider, { siteName: "Ours" });
      const created = await provider.create(news);
      await emulatorCall(service.emulator, "PUT", "/api/3/brandings/1", { branding: { footerTextValue: "Someone else's" } });
      const unmanaged = await provider.read("1", created.outs);
      assert.deepEqual(asHostSends(unmanaged.props), asHostSends(created.outs));
      await emulatorCall(service.emulator, "PUT", "/api/3/brandings/1", { branding: { siteName: "Changed out of band", links: 1 } });
      const drifted = await provider.read("1", created.outs);
      assert.deepEqual([drifted.props?.siteName, drifted.props?.externalLinks], ["Changed out of band", false]);
      assert.equal((await provider.diff("1", drifted.props!, news)).changes, true);
      assert.deepEqual(await provider.read("2", created.outs), {});
    });

    it("read from the id alone, as pulumi import reads, declares every field as found and remembers them for destroy, which puts back one the stack changed", async () => {
      await emulatorCall(service.emulator, "PUT", "/api/3/brandings/1", { branding: { siteName: "Found", footerTextValue: "Found footer" } });
      const imported = (await provider.core.read("1", { import: true }))!;
      assert.deepEqual(imported.inputs, provider.inputsDeclaring(await brandingOf(service.emulator)));
      assert.deepEqual([imported.inputs.siteName, imported.inputs.footerTextValue], ["Found", "Found footer"]);
      assert.equal((await provider.diff("1", imported.outputs, await checked(provider, imported.inputs))).changes, false);
      await provider.update("1", imported.outputs, await checked(provider, { ...imported.inputs, siteName: "Ours" }));
      assert.equal((await brandingOf(service.emulator)).siteName, "Ours");
      await provider.delete("1", (await provider.read("1", imported.outputs)).props!);
      assert.equal((await brandingOf(service.emulator)).siteName, "Found");
    });

    it("refuses a second resource for the same branding before any write, and an id the account does not have", async () => {
      await provider.create(await checked(provider, { siteName: "First" }));
      const sent = service.proxy.requests.length;
      await assert.rejects(
        provider.create(await checked(provider, { brandingId: "1", footerTextValue: "Second" })),
        /crm\.Branding 1: two Branding resources of this program manage branding 1; declare it once\./,
      );
      assert.deepEqual(
        service.proxy.requests.slice(sent).map((r) => r.method),
        ["GET"],
      );
      await assert.rejects(
        provider.create(await checked(provider, { brandingId: "9" })),
        /crm\.Branding 9: the account has no branding with id 9; leave brandingId out/,
      );
    });

    describe("on a plan without template editing", () => {
      let planless: RunningEmulator;
      before(async () => (planless = await startEmulator({ port: 0, rateLimit: 0, templateEditing: false })));
      after(async () => planless.close());

      it("fails naming the template fields and the plan limit, changes nothing, and frees the branding", async () => {
        useService(planless.crmUrl, planless.apiToken);
        await assert.rejects(
          provider.create(await checked(provider, { siteName: "Ours", adminTemplateHtm: "<div></div>", adminTemplateCss: "div {}" })),
          (error: Error) => {
            assert.match(error.message, /^crm\.Branding 1: the service answered 422 \(field_invalid\) for field "adminTemplateHtm"/);
            assert.match(
              error.message,
              /adminTemplateHtm, adminTemplateCss can be set only on plans that include template editing: remove them from the resource, or change the account's plan/,
            );
            return true;
          },
        );
        const untouched = (await fetch(`${planless.crmUrl}/api/3/brandings/1`, { headers: { "Api-Token": planless.apiToken } }).then((r) => r.json())) as {
          branding: { siteName: string };
        };
        assert.equal(untouched.branding.siteName, "Marketing Automation");
        assert.equal((await provider.create(await checked(provider, { siteName: "Ours" }))).outs.siteName, "Ours");
      });
    });
  },
);

describe("crm.Branding against a service that keeps external links off", () => {
  let server: ScriptedServer;
  after(async () => server?.close());

  it("fails the change to externalLinks: true clearly, instead of doing nothing", async () => {
    server = await startScriptedServer((req, res) =>
      sendJson(res, 200, {
        branding: { id: "1", groupid: "3", siteName: JSON.parse(req.body || "{}").branding?.siteName ?? "Ours", links: "0", favicon: null },
      }),
    );
    useStackConfig(configOf({ "crm:apiUrl": server.url, "crm:apiToken": "k" }));
    const olds = { siteName: "Ours", externalLinks: false, originalValues: { siteName: "Theirs", externalLinks: true } };
    await assert.rejects(provider.update("1", olds, await checked(provider, { siteName: "Ours" })), (error: Error & { id?: string }) => {
      assert.match(error.message, /^crm\.Branding 1: the service kept external links off: .* turn them on in the account's branding settings/);
      assert.equal(error.id, "1");
      return true;
    });
    assert.deepEqual(JSON.parse(server.requests[0].body), { branding: { siteName: "Ours" } });
  });
});
