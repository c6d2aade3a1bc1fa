// A 500 from the service (issue 36, point 7), per method. The emulator's fault carries the
// request out, then answers 500 with an HTML page or nothing: a client cannot tell whether the
// work was done, and this is the case where doing it again does it twice. A GET, PUT or DELETE
// is sent again; a create is looked for first and sent again only if it is not found; a POST
// with no way to look is not sent again.

import assert from "node:assert/strict";
import { FaultInjector, type FaultOutcome, parseFaultSpec } from "../../emulator/src/core/faults";
import * as account from "../../provider/crm/account";
import { crmService } from "../../provider/settings";
import { ServiceClient } from "../../provider/service-client";
import { emulatorCall, emulatorForProvider, emulatorStats, type RunningEmulator, setFaults } from "../../scripts/harness/emulator";
import { checked, providerCode } from "../support/provider-steps";

const faults = "500=0.5";

/** The first seed whose draws of `faults` begin with `outcomes`. */
function seedFor(outcomes: FaultOutcome[]): number {
  for (let seed = 0; ; seed++) {
    const injector = new FaultInjector();
    injector.configure(parseFaultSpec(faults), seed);
    if (outcomes.every((outcome) => injector.next().outcome === outcome)) return seed;
  }
}

/** The next request answered 500 after its work, and no fault in the requests after it. */
const onlyNextFails = seedFor([500, ...Array<FaultOutcome>(10).fill("none")]);

describe("reliability: a 500 after the work, per method", function () {
  this.timeout(30_000);
  let emulator: RunningEmulator;
  before(async () => (emulator = await emulatorForProvider()));
  after(async () => emulator?.close());
  afterEach(async () => setFaults(emulator, ""));

  /** The statuses each route answered while `run` ran, the next request failing with 500. */
  const answeredWhile = async <T>(run: () => Promise<T>) => {
    const before = (await emulatorStats(emulator)).byRouteAndStatus;
    await setFaults(emulator, faults, onlyNextFails);
    const result = await run();
    await setFaults(emulator, "");
    const after = (await emulatorStats(emulator)).byRouteAndStatus;
    const statuses = Object.fromEntries(
      Object.entries(after).map(([route, counts]) => [
        route,
        Object.fromEntries(
          Object.entries(counts).flatMap(([status, count]) =>
            count > (before[route]?.[status] ?? 0) ? [[status, count - (before[route]?.[status] ?? 0)]] : [],
          ),
        ),
      ]),
    );
    return { result, statuses: Object.fromEntries(Object.entries(statuses).filter(([, counts]) => Object.keys(counts).length > 0)) };
  };
  const created = async (name: string) => account.create(await checked(account, { name }));
  const accountsNamed = async (name: string) =>
    ((await emulatorCall(emulator, "GET", "/api/3/accounts?limit=100")).body.accounts as Array<{ id: string; name: string }>).filter((a) => a.name === name);

  it("GET: sent again", async () => {
    const { id, outs } = await created("Read Twice");
    const { result, statuses } = await answeredWhile(() => account.read(id, { ...outs, __provider: providerCode }));
    assert.equal(result.props?.name, "Read Twice");
    assert.deepEqual(statuses, { "GET /api/3/accounts/:id": { "500": 1, "200": 1 } });
  });

  it("PUT: sent again, the write confirmed by what comes back", async () => {
    const { id, outs } = await created("Before Update");
    const news = await checked(account, { name: "After Update" });
    const { result, statuses } = await answeredWhile(() => account.update(id, { ...outs, __provider: providerCode }, news));
    assert.equal(result.outs?.name, "After Update");
    assert.deepEqual(statuses, { "PUT /api/3/accounts/:id": { "500": 1, "200": 1 } });
    assert.equal((await accountsNamed("After Update")).length, 1);
  });

  it("DELETE: sent again, its 404 telling that the first one did it", async () => {
    const { id, outs } = await created("Deleted Once");
    const { statuses } = await answeredWhile(() => account.delete(id, { ...outs, __provider: providerCode }));
    assert.deepEqual(statuses, { "DELETE /api/3/accounts/:id": { "500": 1, "404": 1 } });
    assert.deepEqual(await accountsNamed("Deleted Once"), []);
  });

  it("POST of a create: looked for first, found, and never sent again", async () => {
    const inputs = await checked(account, { name: "Created Once" });
    const { result, statuses } = await answeredWhile(() => account.create(inputs));
    assert.deepEqual(statuses["POST /api/3/accounts"], { "500": 1 }, JSON.stringify(statuses));
    assert.deepEqual(
      (await accountsNamed("Created Once")).map((a) => String(a.id)),
      [result.id],
    );
  });

  it("POST with no way to look for what it made: not sent again, and said so", async () => {
    const client = new ServiceClient(crmService, 'crm.Account "Posted Once"');
    const { result, statuses } = await answeredWhile(() =>
      client.call({ method: "POST", path: "/accounts", body: { account: { name: "Posted Once" } } }).then(
        () => "sent",
        (error: Error) => error.message,
      ),
    );
    assert.match(
      result,
      /^crm\.Account "Posted Once": the service answered 500(: an HTML page instead of JSON \("500 Internal Server Error"\))?; it may have taken effect on the service anyway: check there before running it again\.$/,
    );
    assert.deepEqual(statuses, { "POST /api/3/accounts": { "500": 1 } });
    assert.equal((await accountsNamed("Posted Once")).length, 1);
  });
});
