// A deployment of every CRM object type on the pulumi CLI against an emulator that injects
// faults (429, 503, connections reset before the work and lost after it) from fixed seeds.
// `up` converges in at most four runs; then the service holds exactly the declared objects (no
// duplicate, no orphan), the drift check finds nothing, and destroy leaves nothing. The
// figures of each seed are printed.
//
// The program declares what test/support/every-resource.ts gives it: the example of each
// type (and a text field its value refers to) per copy, and the branding. CI deploys 1
// copy (24 objects the service lists, and the branding) with one seed; `npm run soak`
// (RELIABILITY_SOAK=1) deploys 13 copies (312 objects, and the branding) with three seeds.

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { emulatorCall, emulatorStats, type RunningEmulator, setFaults } from "../../scripts/harness/emulator";
import { installProgram } from "../../scripts/harness/packed-program";
import { type CliResult, CliStack, resourceErrors } from "../../scripts/harness/pulumi-cli";
import { everyResourceStack, type EveryResourceStack } from "../support/every-resource";
import { tallyService } from "../support/service-tally";

const soak = process.env.RELIABILITY_SOAK === "1";
const copies = soak ? 13 : 1;
// RELIABILITY_SEEDS=4,5 runs other seeds (a run's figures print its seed).
const seeds = process.env.RELIABILITY_SEEDS?.split(",").map(Number) ?? (soak ? [1, 2, 3] : [1]);
const faultSpec = "429=0.2,503=0.1,reset=0.05,lost=0.05,latency=0-5";
const maxUps = 4;

describe(`reliability: fault soak, ${copies} copies of every CRM object type`, function () {
  this.timeout(soak ? 3_600_000 : 600_000);
  let program: string;

  before(() => {
    program = installProgram(join(__dirname, "programs", "every-resource"), "reliability-every-resource", { typeCheck: "once" });
  });

  for (const seed of seeds) {
    describe(`seed ${seed}`, () => {
      let emulator: RunningEmulator;
      let stack: CliStack;
      let declared: EveryResourceStack;
      const figures: Record<string, unknown> = { seed, faults: faultSpec };

      before(async () => {
        emulator = await startEmulator({ port: 0, rateLimit: 0 });
        const contactIds: string[] = [];
        for (let n = 1; n <= copies; n++) {
          contactIds.push((await emulatorCall(emulator, "POST", "/api/3/contacts", { contact: { email: `soak-${n}@example.com` } })).body.contact.id);
        }
        declared = everyResourceStack(copies, contactIds);
        // The emulator's rate limit is off, so the provider's own pacing is too.
        stack = await CliStack.create(program, `soak-${seed}`, {
          config: { "crm:apiUrl": emulator.crmUrl, "crm:requestsPerSecond": "0", ...declared.config },
          secrets: { "crm:apiToken": emulator.apiToken },
        });
      });
      after(async () => {
        console.log(`      figures: ${JSON.stringify(figures)}`);
        stack?.remove();
        await emulator?.close();
      });

      const output = (result: CliResult) => result.lines.join("\n");
      // Ups without the preview (`up --skip-preview`): a preview of this program sends no request, so it
      // meets no fault; the preview of a fresh stack of it runs in killed-mid-deployment.test.ts.
      // Every run meets faults, so a run that carries on what an earlier one left may fail too;
      // which requests fail depends on their order, which concurrency varies.
      it(`up converges in at most ${maxUps} runs, each failed run naming only writes left unconfirmed`, async () => {
        await setFaults(emulator, faultSpec, seed);
        const failedRuns: string[][] = [];
        for (let run = 1; ; run++) {
          const result = await stack.up("--skip-preview");
          if (result.exitCode === 0) break;
          const errors = resourceErrors(result).map((error) => error.message);
          failedRuns.push(errors);
          assert.ok(errors.length > 0, output(result));
          for (const error of errors)
            assert.match(error, /may have taken effect|run `pulumi up` again/, `a failure that is not an unconfirmed write:\n${output(result)}`);
          assert.ok(run < maxUps, `no convergence in ${maxUps} runs:\n${output(result)}`);
        }
        figures.ups = failedRuns.length + 1;
        figures.failedRunErrors = failedRuns;
        const { requests, byStatus } = await emulatorStats(emulator);
        Object.assign(figures, { requests, byStatus });
      });

      it("the service holds exactly the declared objects: no duplicate, no orphan", async () => {
        await setFaults(emulator, "");
        const found = await tallyService(emulator, stack.resources());
        figures.objects = found.objects + 1; // and the branding
        figures.duplicates = found.duplicates.length;
        figures.orphans = found.orphans.length;
        assert.deepEqual({ duplicates: found.duplicates, orphans: found.orphans, missing: found.missing }, { duplicates: [], orphans: [], missing: [] });
        assert.equal(found.objects, declared.objects);
      });

      it("the drift check (faults off) finds no change", async () => {
        const drift = await stack.driftCheck();
        assert.equal(drift.exitCode, 0, output(drift));
      });

      it("destroy, with the faults back on, leaves nothing", async () => {
        await setFaults(emulator, faultSpec, seed + 1000);
        const destroy = await stack.destroy("--skip-preview");
        figures.destroyExitCode = destroy.exitCode;
        assert.equal(destroy.exitCode, 0, output(destroy));
        await setFaults(emulator, "");
        const found = await tallyService(emulator, stack.resources());
        assert.equal(found.objects, 0, JSON.stringify(found));
        const { requests, byStatus } = await emulatorStats(emulator);
        Object.assign(figures, { requestsWithDestroy: requests, byStatusWithDestroy: byStatus });
      });
    });
  }
});
