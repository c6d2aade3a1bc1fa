// The tests of a kind the service knows by name only (see provider/crm/name-keyed.ts): the
// shared resource tests, then what the name as id means: a name held already refused unless
// taken over by adoptId, drift (a name removed behind the stack's back) caught and repaired,
// a new name a replacement, import by the name, reads sharing the list's pages, and the export.

import assert from "node:assert/strict";
import { readAccount, type ExportKind } from "../../provider/commands/export/read-account";
import { DeclaredNames } from "../../provider/kit/unique-names";
import { writesByRoute, writesSince } from "./adoption";
import { emulatorCall, type RunningEmulator } from "../../scripts/harness/emulator";
import { checked } from "./provider-steps";
import { type BadInput, describeResource, emptyAccount } from "./describe-resource";

/** A name-keyed kind's module. */
type NameKeyedModule = Omit<typeof import("../../provider/crm/site-tracking-domain"), "SiteTrackingDomain">;

export interface NameKeyedCase {
  type: string;
  /** Its export kind, e.g. `site-tracking-domain`. */
  kind: ExportKind;
  /** Its collection's path below /api/3 and root key, e.g. `/siteTrackingDomains`, `siteTrackingDomain`. */
  path: string;
  member: string;
  /** Valid names, at least three; and names of the service's own objects, which the list holds beside the account's. */
  names: string[];
  builtIn?: string[];
  badInputs: BadInput[];
}

export function describeNameKeyed(provider: NameKeyedModule, { type, kind, path, member, names, builtIn = [], badInputs }: NameKeyedCase): void {
  const [first, second, third] = names;
  const listed = async (emulator: RunningEmulator): Promise<string[]> =>
    (await emulatorCall(emulator, "GET", `/api/3${path}?limit=100`)).body[`${member}s`].map((object: { name: string }) => object.name);
  const made = (emulator: RunningEmulator, name: string) => emulatorCall(emulator, "POST", `/api/3${path}`, { [member]: { name } });

  describeResource(
    {
      type,
      provider,
      beforeEach: async (service) => {
        await emptyAccount(service);
        for (const name of builtIn) await made(service.emulator, name);
      },
      adoption: {
        existing: async ({ emulator }) => {
          await made(emulator, first);
          return { id: first, inputs: { name: first } };
        },
        unknownId: third,
        idInput: "name",
      },
      badInputs: [
        ...badInputs,
        [{ name: first, adoptId: second }, "adoptId", new RegExp(`adoptId must be the name itself \\("${first}"\\): a .*'s id is its name`)],
      ],
      roundTrip: { inputs: [{ name: first }, { name: second }] },
    },
    (service) => {
      it("refuses a name the account holds already, naming adoptId, and writes nothing", async () => {
        await made(service.emulator, first);
        const before = await writesByRoute(service.emulator);
        await assert.rejects(provider.create(await checked(provider, { name: first })), (error: Error) => {
          assert.match(
            error.message,
            new RegExp(
              `^${type.replace(".", "\\.")} "${first}": the account holds this .* already; declare another name, or, only if no stack manages it, take it over with adoptId: "${first}"`,
            ),
          );
          return true;
        });
        assert.deepEqual(await writesSince(service.emulator, before), {});
      });

      it("refuses a name declared twice in one program, regardless of case", () => {
        const declared = new DeclaredNames();
        assert.equal(declared.claim(provider.core, { name: first }, "first"), undefined);
        assert.match(
          declared.claim(provider.core, { name: first.toUpperCase() }, "second")!.message,
          /two resources of this program declare the .* \(.*s are unique regardless of case\)/,
        );
      });

      it("finds a name removed behind its back gone (drift), makes it again, and deletes it by name", async () => {
        const created = await provider.create(await checked(provider, { name: first }));
        assert.equal(created.id, first);
        await emulatorCall(service.emulator, "DELETE", `/api/3${path}/${encodeURIComponent(first)}`);
        assert.deepEqual(await provider.read(created.id, created.outs), {});
        // The engine creates it again on the next up.
        const again = await provider.create(await checked(provider, { name: first }));
        assert.deepEqual(await provider.read(again.id, again.outs), { id: first, props: { name: first }, inputs: { name: first } });
        await provider.delete(again.id, again.outs);
        assert.deepEqual(await listed(service.emulator), builtIn);
        // Already gone counts as deleted.
        await provider.delete(again.id, again.outs);
      });

      it("replaces the object for a new name", async () => {
        const created = await provider.create(await checked(provider, { name: first }));
        const news = await checked(provider, { name: second });
        assert.deepEqual((await provider.diff(created.id, created.outs, news)).replaces, ["name"]);
        const replacement = await provider.create(news);
        await provider.delete(created.id, created.outs);
        assert.equal(replacement.id, second);
        assert.deepEqual(await listed(service.emulator), [...builtIn, second]);
      });

      it("imports by the name alone, and an unknown name is no object", async () => {
        await made(service.emulator, first);
        const imported = await provider.core.read(first, { import: true });
        assert.deepEqual(imported, { id: first, outputs: { name: first }, inputs: { name: first } });
        assert.equal((await provider.diff(first, imported!.outputs, await checked(provider, imported!.inputs))).changes, false);
        assert.equal(await provider.core.read(second, { import: true }), undefined);
      });

      it("answers the reads arriving together from one walk of the list, reading on to the page that holds a name", async () => {
        // 120 names: the last on the second page of 100.
        const many = Array.from({ length: 120 }, (_, n) => `${n}-${first}`);
        for (const name of many) await made(service.emulator, name);
        const before = service.proxy.requests.length;
        const reads = await Promise.all([many[0], many[119], third].map((name) => provider.core.read(name, { refresh: { name } })));
        assert.deepEqual(
          reads.map((read) => read?.id),
          [many[0], many[119], undefined],
        );
        assert.deepEqual(
          service.proxy.requests.slice(before).map((request) => `${request.method} ${request.path}${request.query}`),
          [`GET /api/3${path}?limit=100&offset=0`, `GET /api/3${path}?limit=100&offset=100`],
        );
      });

      it("is exported by its name as id, the service's own left out, and taken over by the export's declaration with no write", async () => {
        await made(service.emulator, first);
        await made(service.emulator, second);
        const exported = await readAccount({ kinds: new Set([kind]), progress: () => undefined });
        assert.deepEqual(
          exported.map((object) => [object.id, object.inputs]),
          [
            [first, { name: first }],
            [second, { name: second }],
          ],
        );
        const before = await writesByRoute(service.emulator);
        for (const object of exported) {
          const adopted = await provider.create(await checked(provider, { ...object.inputs, adoptId: object.id }));
          assert.equal(adopted.id, object.id);
        }
        assert.deepEqual(await writesSince(service.emulator, before), {});
      });
    },
  );
}
