// The requests and wall time of `pulumi-crm compare` of two accounts of some 500 setup objects
// each, and of `pulumi-crm export` of one of them: two emulators populated alike through the API
// with their limit off (each kept in a data file), started again from those files at the
// service's 5 requests a second, then compared, then one exported, at the provider's own pace (5
// a second per account, CRM_REQUESTS_PER_SECOND unset). Requests are the emulators' counts, by route.
//
//   npx ts-node --transpile-only bench/export-and-compare.ts
//
// Not part of npm test: half a minute at the limit. Figures are printed, never asserted.

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../emulator";
import { compareMain } from "../provider/commands/compare";
import { emulatorCall, emulatorStats, type RunningEmulator } from "../scripts/harness/emulator";

/** Objects made per kind: 500 in all with the pipelines' three default stages each (and the 11 every account comes with). */
const counts = {
  lists: 80,
  tags: 100,
  fields: 50,
  webhooks: 40,
  variables: 30,
  savedResponses: 30,
  groups: 20,
  users: 30,
  pipelines: 10,
  addresses: 20,
  calendars: 20,
  messages: 20,
  taskTypes: 10,
  dealFields: 10,
};

async function populate(account: RunningEmulator): Promise<number> {
  let made = 0;
  const post = async (path: string, member: string, object: Record<string, unknown>) => {
    const reply = await emulatorCall(account, "POST", `/api/3${path}`, { [member]: object });
    if (reply.status >= 300) throw new Error(`POST ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    made++;
    return String(reply.body[member].id);
  };
  const times = (count: number, make: (index: number) => Promise<unknown>) =>
    Array.from({ length: count }, (_, index) => index).reduce((done, index) => done.then(() => make(index)), Promise.resolve<unknown>(undefined));
  const lists: string[] = [];
  const groups: string[] = [];
  await times(counts.lists, async (i) =>
    lists.push(
      await post("/lists", "list", { name: `List ${i}`, stringid: `list-${i}`, sender_url: "https://acme.example", sender_reminder: "You signed up." }),
    ),
  );
  await times(counts.tags, (i) => post("/tags", "tag", { tag: `Tag ${i}`, tagType: i % 2 ? "contact" : "template", description: `Tag number ${i}` }));
  await times(counts.fields, async (i) => {
    const field = await post("/fields", "field", { title: `Field ${i}`, type: "text" });
    await emulatorCall(account, "POST", "/api/3/fieldRels", { fieldRel: { field: Number(field), relid: Number(lists[i % lists.length]) } });
  });
  await times(counts.webhooks, (i) =>
    post("/webhooks", "webhook", {
      name: `Hook ${i}`,
      url: `https://hooks.acme.example/${i}`,
      events: ["subscribe"],
      sources: ["public"],
      listid: Number(lists[i]),
    }),
  );
  await times(counts.variables, (i) =>
    post("/personalizations", "personalization", { tag: `var${i}`, name: `Variable ${i}`, format: "text", content: `Value ${i}` }),
  );
  await times(counts.savedResponses, (i) => post("/savedResponses", "savedResponse", { title: `Response ${i}`, subject: "Thanks", body: `Body ${i}` }));
  await times(counts.groups, async (i) => groups.push(await post("/groups", "group", { title: `Group ${i}`, pgDeal: true })));
  await times(counts.users, (i) =>
    post("/users", "user", {
      username: `user${i}`,
      email: `user${i}@acme.example`,
      firstName: "User",
      lastName: `${i}`,
      group: Number(groups[i % groups.length]),
      password: "s3cret-pass",
    }),
  );
  await times(counts.pipelines, async (i) => {
    await post("/dealGroups", "dealGroup", { title: `Pipeline ${i}`, currency: "usd", autoassign: 0, allgroups: 0, groups: [groups[i]] });
    made += 3;
  });
  await times(counts.addresses, (i) =>
    post("/addresses", "address", {
      company_name: `Office ${i}`,
      address_1: `${i} Main St`,
      country: "US",
      groupid: Number(groups[i]),
      listid: Number(lists[i]),
    }),
  );
  await times(counts.calendars, (i) => post("/calendars", "calendar", { title: `Calendar ${i}`, type: "All" }));
  await times(counts.messages, (i) =>
    post("/messages", "message", { fromname: "Acme", fromemail: "news@acme.example", reply2: "help@acme.example", subject: `Message ${i}` }),
  );
  await times(counts.taskTypes, (i) => post("/dealTasktypes", "dealTasktype", { title: `Task type ${i}`, status: "0" }));
  await times(counts.dealFields, (i) => post("/dealCustomFieldMeta", "dealCustomFieldMetum", { fieldLabel: `Deal field ${i}`, fieldType: "text" }));
  return made;
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "bench-compare-"));
  const accounts = ["from", "to"].map((name) => ({ name, data: join(folder, `${name}.json`), token: `bench-${name}-key` }));
  try {
    for (const account of accounts) {
      const emulator = await startEmulator({ port: 0, rateLimit: 0, data: account.data, token: account.token });
      console.log(`${account.name}: ${await populate(emulator)} objects made`);
      await emulator.close();
    }
    const [from, to] = await Promise.all(accounts.map((account) => startEmulator({ port: 0, rateLimit: 5, data: account.data, token: account.token })));
    delete process.env.CRM_REQUESTS_PER_SECOND;
    process.env.CRM_FROM_API_TOKEN = from.apiToken;
    process.env.CRM_TO_API_TOKEN = to.apiToken;
    const started = Date.now();
    const code = await compareMain(["--from", from.crmUrl, "--to", to.crmUrl]);
    const seconds = (Date.now() - started) / 1000;
    for (const [name, emulator] of [
      ["from", from],
      ["to", to],
    ] as const) {
      const { requests, byRoute, byStatus } = await emulatorStats(emulator);
      console.log(`${name}: ${requests} requests (${byStatus["429"] ?? 0} answered 429): ${JSON.stringify(byRoute)}`);
    }
    console.log(`compare: exit code ${code}, ${seconds.toFixed(1)} s wall time, both accounts read side by side at 5 requests a second each`);

    // The export, as its command runs (ts-node's start included, some 1 to 2 s).
    const before = (await emulatorStats(from)).requests;
    const exportStarted = Date.now();
    // Asynchronous: the emulators answer from this process's event loop.
    await promisify(execFile)(
      process.execPath,
      [
        "-r",
        "ts-node/register/transpile-only",
        join(__dirname, "..", "provider", "commands", "bin.ts"),
        "export",
        "--api-url",
        from.crmUrl,
        "--out",
        join(folder, "program"),
      ],
      {
        env: { ...process.env, CRM_API_TOKEN: from.apiToken },
      },
    );
    const exported = readFileSync(join(folder, "program", "index.ts"), "utf8").match(/new crm\.\w+\(/g)?.length;
    console.log(
      `export: ${exported} resources, ${(await emulatorStats(from)).requests - before} requests, ${((Date.now() - exportStarted) / 1000).toFixed(1)} s wall time`,
    );
    await Promise.all([from.close(), to.close()]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
