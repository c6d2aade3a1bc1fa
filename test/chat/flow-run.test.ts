import assert from "node:assert/strict";
import type { Output } from "@pulumi/pulumi";
import { startEmulator } from "../../emulator";
import { BUILT_IN_FLOWS } from "../../emulator/src/chat";
import * as flowRun from "../../provider/chat/flow-run";
import type { FlowRunArgs } from "../../provider/chat/flow-run";
import { unknownValue } from "../../provider/kit/inputs";
import { PartlyDoneError } from "../../provider/kit/write-errors";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorForProvider, flowRunsStarted, requestCount, type RunningEmulator, setFaults } from "../../scripts/harness/emulator";

const flowId = "2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31";
const failingFlow = BUILT_IN_FLOWS.find((flow) => flow.failureReason)!;
const providerCode = "exports.handler = ...";
/** How long the emulator's runs take here: short, so that waiting for them is quick. */
const runMs = 300;

describe("chat.FlowRun provider", () => {
  let emulator: RunningEmulator;
  before(async () => (emulator = await emulatorForProvider({ executionDurationMs: runMs })));
  after(async () => emulator.close());
  const useChat = (extra: Record<string, string> = {}) =>
    useStackConfig(configOf({ "chat:apiUrl": emulator.chatUrl, "chat:apiToken": emulator.apiToken, ...extra }));
  beforeEach(() => useChat());

  const checked = async (news: Record<string, unknown>) => {
    const result = await flowRun.check({}, { ...news, __provider: providerCode });
    assert.equal(result.failures, undefined, JSON.stringify(result.failures));
    return result.inputs!;
  };

  it("names the field and the rule for bad inputs, without a request", async () => {
    const before = await requestCount(emulator);
    const result = await flowRun.check({}, { flowId: "flow-1", contacts: [{ email: "not-an-email", phone: "1".repeat(31), nickname: "x" }] });
    const reasons = (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
    assert.ok(
      reasons.some((r) => /^flowId: chat\.FlowRun of flow flow-1: flowId must be the flow's UUID/.test(r)),
      reasons.join("\n"),
    );
    assert.ok(
      reasons.some((r) => /^: .*contacts\[0\]\.email must be an email address \(given "not-an-email"\)$/.test(r)),
      reasons.join("\n"),
    );
    assert.ok(
      reasons.some((r) => /^: .*contacts\[0\]\.phone must be at most 30 characters \(given "1{31}"\)$/.test(r)),
      reasons.join("\n"),
    );
    assert.ok(
      reasons.some((r) => /^: .*contacts\[0\]\.nickname is not a field of a contact.* \(given "x"\)$/.test(r)),
      reasons.join("\n"),
    );
    assert.equal(await requestCount(emulator), before);
  });

  it("accepts values unknown at any depth in a preview, and still names known mistakes", async () => {
    const nested = await flowRun.check({}, { flowId, contacts: [unknownValue, { firstName: "Ada", externalId: unknownValue }], triggers: [unknownValue] });
    assert.equal(nested.failures, undefined, JSON.stringify(nested.failures));
    assert.deepEqual(nested.inputs?.contacts, [unknownValue, { firstName: "Ada", externalId: unknownValue }]);
    assert.equal(nested.inputs?.hasPriority, false);
    const mixed = await flowRun.check({}, { flowId: "x", contacts: [{ email: unknownValue, phone: 5 }] });
    assert.deepEqual(mixed.failures?.map((f) => f.property || f.reason.split(": ")[1]).sort(), ["contacts[0].phone must be a string (given 5)", "flowId"]);
  });

  it("fails in check, before any run, when the chat settings are missing", async () => {
    useStackConfig(configOf({ "crm:apiUrl": emulator.crmUrl, "crm:apiToken": emulator.apiToken }));
    assert.match(
      String((await flowRun.check({}, { flowId, contacts: [{ phone: "+15550100" }] })).failures?.[0].reason),
      /no chat API address is configured; run `pulumi config set chat:apiUrl/,
    );
  });

  it("runs the flow once on create and reads back exactly what create returned", async () => {
    const inputs = await checked({ flowId, contacts: [{ firstName: "Ada", email: "ada@example.com", tags: ["vip"] }] });
    const created = await flowRun.create(inputs);
    assert.match(created.id, /^[0-9a-f-]{36}$/);
    assert.equal(created.outs.executionId, created.id);
    const read = await flowRun.read(created.id, { ...created.outs, __provider: providerCode });
    assert.deepEqual(read.props, created.outs);
    assert.deepEqual(read.inputs, { flowId, contacts: inputs.contacts, hasPriority: false, triggers: [] });
  });

  it("runs again, as a replace, when triggers or contacts change, and not for a new package version", async () => {
    const olds = { ...(await checked({ flowId, contacts: [{ phone: "+15550100" }], triggers: [1] })), executionId: "x", createdOn: "t" };
    assert.deepEqual((await flowRun.diff("x", olds, { ...olds, __provider: "new code" })).changes, false);
    assert.deepEqual((await flowRun.diff("x", olds, await checked({ flowId, contacts: [{ phone: "+15550100" }], triggers: [2] }))).replaces, ["triggers"]);
  });

  it("says to check the flow id and chat:channel when the service knows no such flow", async () => {
    const unknownFlow = "0d6f3c1e-8a2b-4c5d-9e7f-112233445566";
    await assert.rejects(flowRun.create(await checked({ flowId: unknownFlow, contacts: [{ phone: "+15550100" }] })), (error: Error) => {
      assert.match(
        error.message,
        /the service answered 404: Not found; the service knows no flow 0d6f3c1e-8a2b-4c5d-9e7f-112233445566 on channel "chat": check flowId and the chat:channel setting\.$/,
      );
      assert.doesNotMatch(error.message, /refresh/);
      return true;
    });
  });

  it("uses the chat:channel setting for the path segment", async () => {
    useChat({ "chat:channel": "whatsapp" });
    const created = await flowRun.create(await checked({ flowId, contacts: [{ phone: "+15550100" }] }));
    assert.ok(created.id);
    useChat({ "chat:channel": "../admin" });
    assert.match(
      String((await flowRun.check({}, { flowId, contacts: [{ phone: "+15550100" }] })).failures?.[0].reason),
      /chat:channel must be a channel path segment/,
    );
  });

  it("reports a run whose answer was lost instead of starting it twice", async () => {
    const runs = () => flowRunsStarted(emulator);
    const before = await runs();
    await setFaults(emulator, "lost=1");
    try {
      await assert.rejects(
        flowRun.create(await checked({ flowId, contacts: [{ phone: "+15550100" }] })),
        /^ServiceError: chat\.FlowRun of flow .*: the request did not complete: .*; the run may have started anyway: check the flow's executions/,
      );
    } finally {
      await setFaults(emulator, "");
    }
    assert.equal((await runs()) - before, 1);
  });

  describe("waitForCompletion", () => {
    it("follows the run until it completes: status and finishedOn from the service, read back unchanged", async () => {
      const before = await flowRunsStarted(emulator);
      const inputs = await checked({ flowId, contacts: [{ phone: "+15550100" }, { phone: "+15550101" }], waitForCompletion: true });
      const created = await flowRun.create(inputs);
      assert.deepEqual([created.outs.status, created.outs.statusReason], ["COMPLETED", null]);
      assert.equal(Date.parse(created.outs.finishedOn) - Date.parse(created.outs.createdOn), runMs);
      assert.equal((await flowRunsStarted(emulator)) - before, 1);
      const read = await flowRun.read(created.id, { ...created.outs, __provider: providerCode });
      assert.deepEqual(read.props, created.outs);
    });

    it("fails the step with the service's reason when the run fails, recorded so that the next up never runs it again", async () => {
      const before = await flowRunsStarted(emulator);
      const inputs = await checked({ flowId: failingFlow.id, contacts: [{ phone: "+15550100" }], waitForCompletion: true });
      let failure: PartlyDoneError | undefined;
      await assert.rejects(flowRun.create(inputs), (error: Error) => {
        assert.ok(error instanceof PartlyDoneError, String(error));
        assert.match(
          error.message,
          /^chat\.FlowRun of flow e371b3cb-5dd5-45ab-9426-9f24b62a49c0: execution [0-9a-f-]{36} ended FAILED: The flow's webhook step answered 500 Internal Server Error; it is recorded and not run again: fix the flow, then change triggers to run it again\.$/,
        );
        failure = error;
        return true;
      });
      const recorded = failure!.properties;
      assert.deepEqual(
        [failure!.id, recorded.executionId, recorded.status, recorded.statusReason],
        [recorded.executionId, failure!.id, "FAILED", failingFlow.failureReason],
      );
      // Recorded with its provider, as the host records a write that succeeded: refresh and destroy find it.
      const { __provider: recordedProvider, ...outputs } = recorded;
      assert.equal(recordedProvider, inputs.__provider);
      // The next up: no change to diff, and the update Pulumi makes of a resource that failed to initialize runs nothing.
      assert.equal((await flowRun.diff(failure!.id, recorded, inputs)).changes, false);
      assert.deepEqual((await flowRun.update(failure!.id, recorded, inputs)).outs, outputs);
      assert.equal((await flowRunsStarted(emulator)) - before, 1);
    });

    it("records a run that outlasts timeoutSeconds, and the next up waits for the same run", async () => {
      const slow = await startEmulator({ port: 0, rateLimit: 0, executionDurationMs: 1_500 });
      try {
        useStackConfig(configOf({ "chat:apiUrl": slow.chatUrl, "chat:apiToken": slow.apiToken }));
        const inputs = await checked({ flowId, contacts: [{ phone: "+15550100" }], waitForCompletion: true, timeoutSeconds: 1 });
        let timeout: PartlyDoneError | undefined;
        await assert.rejects(flowRun.create(inputs), (error: Error) => {
          assert.ok(error instanceof PartlyDoneError, String(error));
          assert.match(
            error.message,
            /execution [0-9a-f-]{36} is still RUNNING after 1 s; it keeps running on the service: run `pulumi up` again to keep waiting for it \(it is not started again\), or raise timeoutSeconds\.$/,
          );
          timeout = error;
          return true;
        });
        assert.equal(timeout!.properties.status, "RUNNING");
        assert.deepEqual(await flowRun.diff(timeout!.id, timeout!.properties, inputs), { changes: true, replaces: [], deleteBeforeReplace: false });
        const finished = (await flowRun.update(timeout!.id, timeout!.properties, { ...inputs, timeoutSeconds: 5 })).outs;
        assert.deepEqual([finished.executionId, finished.status, finished.timeoutSeconds], [timeout!.id, "COMPLETED", 5]);
        assert.equal(await flowRunsStarted(slow), 1);
      } finally {
        await slow.close();
      }
    });

    it("records a started run whose following fails for good, so that the next up waits for it and never starts it again", async () => {
      const gone = await startEmulator({ port: 0, rateLimit: 0, executionDurationMs: 60_000 });
      useStackConfig(configOf({ "chat:apiUrl": gone.chatUrl, "chat:apiToken": gone.apiToken }));
      const inputs = await checked({ flowId, contacts: [{ phone: "+15550100" }], waitForCompletion: true });
      const creating = flowRun.create(inputs);
      // The service goes away once the run has started: every later look is refused.
      while ((await flowRunsStarted(gone)) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await gone.close();
      let failure: PartlyDoneError | undefined;
      await assert.rejects(creating, (error: Error) => {
        assert.ok(error instanceof PartlyDoneError, String(error));
        assert.match(
          error.message,
          /refused the connection \(ECONNREFUSED\).* Execution [0-9a-f-]{36} started and is recorded, so it is not started again; run `pulumi up` again to keep waiting for it\.$/,
        );
        assert.equal(error.id, error.properties.executionId);
        assert.equal(error.properties.status, null);
        failure = error;
        return true;
      });
      // The next up carries on with the same run, in place.
      assert.deepEqual(await flowRun.diff(failure!.id, failure!.properties, inputs), { changes: true, replaces: [], deleteBeforeReplace: false });
    });

    it("changes in place, never running the flow again, when waitForCompletion or timeoutSeconds change", async () => {
      const created = await flowRun.create(await checked({ flowId, contacts: [{ phone: "+15550100" }] }));
      assert.deepEqual([created.outs.status, created.outs.finishedOn], [null, null]);
      const before = await flowRunsStarted(emulator);
      const waiting = await checked({ flowId, contacts: [{ phone: "+15550100" }], waitForCompletion: true, timeoutSeconds: 60 });
      assert.deepEqual(await flowRun.diff(created.id, created.outs, waiting), { changes: true, replaces: [], deleteBeforeReplace: false });
      const updated = (await flowRun.update(created.id, created.outs, waiting)).outs;
      assert.deepEqual([updated.executionId, updated.status], [created.id, "COMPLETED"]);
      assert.equal((await flowRun.diff(created.id, updated, waiting)).changes, false);
      assert.equal((await flowRun.update(created.id, updated, { ...waiting, waitForCompletion: false })).outs.waitForCompletion, false);
      assert.equal(await flowRunsStarted(emulator), before);
      const bad = await flowRun.check({}, { flowId, contacts: [{ phone: "+15550100" }], timeoutSeconds: 0.5 });
      assert.match(JSON.stringify(bad.failures), /timeoutSeconds must be a whole number of seconds/);
    });
  });

  it("keeps a run the service no longer shows, so that the next up does not message the contacts again", async () => {
    const props = {
      flowId,
      contacts: [{ phone: "+15550100" }],
      hasPriority: false,
      triggers: [],
      executionId: "00000000-0000-4000-8000-000000000000",
      createdOn: "t",
    };
    const read = await flowRun.read("00000000-0000-4000-8000-000000000000", props);
    assert.equal(read.id, "00000000-0000-4000-8000-000000000000");
    assert.deepEqual(read.props, props);
    assert.deepEqual(read.inputs, { flowId, contacts: props.contacts, hasPriority: false, triggers: [] });
  });
});

// Compiled by `npm run typecheck`: nested contact fields take outputs of other resources.
// biome-ignore lint/suspicious/noExportsInTest: exported so that noUnusedLocals lets a function only the type-check uses be
export function contactFromOutputs(externalId: Output<string>, tag: Output<string>): FlowRunArgs["contacts"] {
  return [{ firstName: "Ada", externalId, tags: [tag] }];
}
