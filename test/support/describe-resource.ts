// The provider test every resource shares, as one describe: the emulator behind a recording
// proxy, adoption by id, a clear failure for each bad input without a request, the round
// trip of create, read and diff (refresh right after create shows no change), and every
// request held to the reference. A resource's own tests go in the describe's body.

import assert from "node:assert/strict";
import type * as pulumi from "@pulumi/pulumi";
import { useStackConfig } from "../../provider/settings";
import { type AdoptionCase, itAdoptsById } from "./adoption";
import { configOf, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { asHostSends } from "./host-struct";
import { checked, configuration, providerCode, type ResourceModule } from "./provider-steps";
import { emulatorBehindProxy, type RecordingProxy } from "./recording-proxy";
import { nonConformingRequests } from "./reference-requests";

/** The emulator a resource's tests run against, and the proxy in front of it that the provider is pointed at. */
export interface ResourceService {
  emulator: RunningEmulator;
  proxy: RecordingProxy;
  /** The ids of the objects the resource points at (an account), as the suite's beforeEach made them for the test. */
  parents: Parents;
}

/** Objects of other kinds by role, e.g. `{ account: "3" }`. */
type Parents = Record<string, string>;

/** A bad input, the field its failure names, and what the failure's reason says. */
export type BadInput = [inputs: Record<string, unknown>, field: string, reason: RegExp];

export interface ResourceSuite {
  /** e.g. `crm.Address`. */
  type: string;
  provider: ResourceModule;
  /**
   * Runs before each test, the provider pointed at the proxy: what the test needs of the
   * account (a reset, the objects the resource points at, returned as its parents).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a suite's beforeEach may return nothing (an async function without a return)
  beforeEach?(service: ResourceService): Promise<Parents | void>;
  /** Runs after each test: e.g. removing objects a create would find identical. */
  afterEach?(service: ResourceService): Promise<void>;
  adoption: Omit<AdoptionCase, "type" | "emulator" | "existing"> & { existing(service: ResourceService): ReturnType<AdoptionCase["existing"]> };
  badInputs: BadInput[];
  /** The service has no delete of the kind: a delete leaves the object and sends nothing (see plainKind's `undeletable`). */
  undeletable?: true;
  roundTrip: {
    /** Inputs each created, read back and diffed in a test of its own; of the test's parents when they point at other objects. */
    inputs: Array<Record<string, unknown>> | ((parents: Parents) => Array<Record<string, unknown>>);
    /** What the test's title says beyond "reads back exactly what create returned". */
    title?: string;
    /** Read's inputs, where they are not the checked inputs (e.g. defaults spelt out). */
    readInputs?(inputs: Record<string, unknown>): Record<string, unknown>;
    /** Checks of create's answer beyond the round trip, before the read. */
    created?(created: pulumi.dynamic.CreateResult, inputs: Record<string, unknown>, service: ResourceService): Promise<void> | void;
    /** Runs after the round trip's checks: e.g. a delete and what it leaves. */
    then?(created: pulumi.dynamic.CreateResult, inputs: Record<string, unknown>, service: ResourceService): Promise<void>;
  };
}

/**
 * A suite's beforeEach for tests that each start on a fresh account, holding only what every
 * account comes with (its branding, switches, built-in task types, admin and admins' group): a create is refused beside an identical object.
 */
export async function emptyAccount({ emulator }: ResourceService): Promise<void> {
  await fetch(`${emulator.crmUrl}/__emulator/reset`, { method: "POST" });
}

/** `describe(`${type} provider`)` with the shared tests, then `body`'s own. */
export function describeResource(suite: ResourceSuite, body: (service: ResourceService) => void): void {
  const { provider } = suite;
  describe(`${suite.type} provider`, () => {
    const service = { parents: {} } as ResourceService;
    const prepared = async () => (service.parents = (await suite.beforeEach?.(service)) ?? {});
    const roundTripInputs = (parents: Parents) => (typeof suite.roundTrip.inputs === "function" ? suite.roundTrip.inputs(parents) : suite.roundTrip.inputs);
    let recordedBefore = 0;
    before(async () => Object.assign(service, await emulatorBehindProxy()));
    after(async () => Promise.all([service.proxy.close(), service.emulator.close()]));
    beforeEach(async () => {
      // A test may point the provider elsewhere (another emulator, a scripted server).
      useStackConfig(configOf({ "crm:apiUrl": service.proxy.url, "crm:apiToken": service.emulator.apiToken, "crm:requestsPerSecond": "0" }));
      await prepared();
      recordedBefore = service.proxy.requests.length;
    });
    afterEach(async function () {
      await suite.afterEach?.(service);
      // Every test's requests, not only the one below's: each path a test takes is held to the reference.
      if (this.currentTest?.state === "passed")
        assert.deepEqual(nonConformingRequests(service.proxy.requests.slice(recordedBefore)), [], "requests the reference does not declare");
    });

    describe("adoption by id", () => {
      itAdoptsById(provider, { ...suite.adoption, type: suite.type, emulator: () => service.emulator, existing: () => suite.adoption.existing(service) });
    });

    it("names the resource, the field and the rule for every bad input, without a request", async () => {
      const before = await requestCount(service.emulator);
      for (const [news, field, reason] of suite.badInputs) {
        const result = await provider.check({}, { ...news, __provider: providerCode });
        const failure = result.failures?.find(
          (f) => f.property === field || (f.property === "" && f.reason.includes(`: ${field.replace(/\.(\d+)/g, "[$1]")} `)),
        );
        assert.ok(failure, `${field}: ${JSON.stringify(result.failures)}`);
        assert.match(failure.reason, reason);
      }
      assert.equal(await requestCount(service.emulator), before);
    });

    const roundTrip = async (inputs: Record<string, unknown>) => {
      const news = await checked(provider, inputs);
      const created = await provider.create(news);
      await suite.roundTrip.created?.(created, inputs, service);
      const read = await provider.read(created.id, created.outs);
      assert.deepEqual(asHostSends(read.props), asHostSends(created.outs), "read's props differ from create's outputs");
      assert.deepEqual(asHostSends(read.inputs), asHostSends(suite.roundTrip.readInputs?.(inputs) ?? configuration(news)), "read's inputs");
      assert.equal((await provider.diff(created.id, created.outs, news)).changes, false, "diff of the checked inputs against create's outputs");
      assert.equal((await provider.diff(created.id, read.props!, news)).changes, false, "refresh right after create");
      await suite.roundTrip.then?.(created, inputs, service);
    };
    // Titles name the parents by role (`"accountId":"<account>"`); each test takes its own ids.
    const named = new Proxy({}, { get: (_, role) => `<${String(role)}>` }) as Parents;
    roundTripInputs(named).forEach((titled, n) => {
      it(`reads back exactly what create returned${suite.roundTrip.title ?? ", and diffs no change"}: ${JSON.stringify(titled)}`, () =>
        roundTrip(roundTripInputs(service.parents)[n]));
    });

    body(service);

    it("sends only requests the reference declares, with bodies its request schemas validate", async () => {
      // Its own requests, so that it holds run alone (--grep) as in the whole file. Each
      // create as in a test of its own, the suite's hooks between them: a create is refused
      // beside an identical object.
      const count = roundTripInputs(service.parents).length;
      for (let n = 0; n < count; n++) {
        if (n > 0) {
          await suite.afterEach?.(service);
          await prepared();
        }
        const inputs = roundTripInputs(service.parents)[n];
        const created = await provider.create(await checked(provider, inputs));
        await provider.read(created.id, created.outs);
        await provider.delete(created.id, created.outs);
      }
      const sent = service.proxy.requests.slice(recordedBefore);
      // A create and a read each, and a delete unless the service has none.
      assert.ok(sent.length >= (suite.undeletable ? 2 : 3) * count, `${sent.length} requests recorded`);
      assert.deepEqual(nonConformingRequests(sent), []);
    });
  });
}
