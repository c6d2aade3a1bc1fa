// A create whose answer is lost (the service did the work, the connection dropped before
// the answer) is found afterwards, not made a second time, for every CRM object type:
// a proxy in front of the emulator drops the answer of the first POST of each test.

import assert from "node:assert/strict";
import { resources, typeOf } from "../../provider/registry";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, emulatorForProvider, type RunningEmulator } from "../../scripts/harness/emulator";
import { dynamicProviderOf, checked, providerCode } from "../support/provider-steps";
import { type RecordingProxy, startRecordingProxy } from "../support/recording-proxy";
import { listedId, makeParents, type Parents, type ResourceExample, resourceExamples } from "../support/resource-examples";

describe("reliability: a create whose answer is lost is recovered, not repeated", function () {
  this.timeout(60_000);
  let emulator: RunningEmulator;
  let proxy: RecordingProxy;
  // The first POST after dropNextPost is carried out by the service, and its answer dropped.
  let dropNextPost = false;
  let dropped = 0;
  let parents: Parents;

  before(async () => {
    emulator = await emulatorForProvider();
    proxy = await startRecordingProxy(emulator.crmUrl, (_answered, request) => {
      if (!dropNextPost || request.method !== "POST") return false;
      dropNextPost = false;
      dropped++;
      return true;
    });
    useStackConfig(configOf({ "crm:apiUrl": proxy.url, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
    parents = await makeParents(emulator);
  });
  after(async () => {
    await proxy?.close();
    await emulator?.close();
  });

  for (const resource of resources) {
    const { inputs, collection } = resourceExamples[typeOf(resource)] as ResourceExample;
    if (!collection) continue;
    it(typeOf(resource), async () => {
      const provider = dynamicProviderOf(resource);
      const listed = async () =>
        ((await emulatorCall(emulator, "GET", `/api/3${collection.path}`)).body[collection.member] as unknown[]).map((object) => listedId(collection, object));
      const before = await listed();
      const droppedBefore = dropped;
      dropNextPost = true;
      const created = await provider.create(await checked(provider, inputs(parents, 1)));
      assert.equal(dropped, droppedBefore + 1, "the create's answer was dropped");
      const made = (await listed()).filter((id) => !before.includes(id));
      assert.deepEqual(made, [created.id], "exactly one object was made, and create returned it");
      await provider.delete(created.id, { ...created.outs, __provider: providerCode });
    });
  }
});
