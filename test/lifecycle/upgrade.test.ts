// Deployed stacks keep working across an upgrade of the package. Every dynamic resource stores
// `require("pulumi-crm/dist/provider/crm/<file>.js")` in its state (`__provider`), and refresh and
// destroy run that stored code later, from whatever package the program folder holds then: those
// module paths are an API. A stack of every CRM object (test/reliability/programs/every-resource)
// and of the two actions (a contact sync, a flow run), every registered resource type, is deployed
// with the package as it was before the resources were declared (issue 34: packed from commit
// 30edf1f), then the program gets the package of this tree: refresh shows no change, up sends no
// request, destroy deletes every object.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { startEmulator } from "../../emulator";
import { emulatorCall, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { type DeclaredResource, everyResourceStack } from "../support/every-resource";
import { installProgram, repoRoot } from "../../scripts/harness/packed-program";
import { type CliResult, CliStack } from "../../scripts/harness/pulumi-cli";
import { resourceExamples } from "../support/resource-examples";
import { tallyService } from "../support/service-tally";
import { type RegisteredResource, resources, typeOf } from "../../provider/registry";

/**
 * The package as `npm pack` made it at 30edf1f, the last commit before the resources were declared
 * (provider/kit/declaration.ts), committed: packed from git history at test time, it needed a full
 * clone, that commit's own `npm ci` and a build (some 22 s).
 */
const packageBefore = join(__dirname, "fixtures", "pulumi-crm-0.1.0-at-30edf1f.tgz");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The program's dependencies, installed with `pulumi-crm` from `tarball` instead (the others as the program has them). */
function installedWith(program: string, tarball: string): string {
  const { dependencies } = JSON.parse(readFileSync(join(program, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  const dir = mkdtempSync(join(repoRoot, ".work", "upgrade-install-"));
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "upgrade-before", private: true, dependencies: { ...dependencies, "pulumi-crm": `file:${tarball}` } }, null, 2),
  );
  execFileSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  return dir;
}

/** Points the program's node_modules at `target`, as replacing the installed package does. */
function useNodeModules(program: string, target: string): void {
  rmSync(join(program, "node_modules"), { force: true });
  symlinkSync(target, join(program, "node_modules"), "dir");
}

describe("upgrading the package under a deployed stack, on the pulumi CLI", function () {
  this.timeout(30 * 60_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  let program: string;
  let newModules: string;
  let oldInstall: string;
  let objects: number;
  /** The registered resources the package before the change has: a resource added since has no stack to upgrade. */
  let earlier: RegisteredResource[];
  const output = (result: CliResult) => result.lines.join("\n");

  before(async () => {
    program = installProgram(join(__dirname, "..", "reliability", "programs", "every-resource"), "lifecycle-upgrade", { typeCheck: "once" });
    newModules = readlinkSync(join(program, "node_modules"));
    oldInstall = installedWith(program, packageBefore);
    earlier = resources.filter(({ namespace, name }) =>
      existsSync(join(oldInstall, "node_modules", "pulumi-crm", "dist", "provider", namespace, `${name}.js`)),
    );
    emulator = await startEmulator({ port: 0, rateLimit: 0 });
    const contact = (await emulatorCall(emulator, "POST", "/api/3/contacts", { contact: { email: "upgrade@example.com" } })).body.contact.id;
    const declared = everyResourceStack(1, [contact], earlier);
    objects = declared.objects;
    const parents = { account: "", contact, contactField: "", textField: "", pipeline: "", userGroup: "", list: "" };
    const actions: DeclaredResource[] = [
      { type: "crm.ContactSync", name: "contact-sync", inputs: resourceExamples["crm.ContactSync"].inputs(parents, 1), references: {} },
      { type: "chat.FlowRun", name: "flow-run", inputs: resourceExamples["chat.FlowRun"].inputs(), references: {} },
    ];
    stack = await CliStack.create(program, "dev", {
      config: {
        "crm:apiUrl": emulator.crmUrl,
        "crm:requestsPerSecond": "0",
        "chat:apiUrl": emulator.chatUrl,
        resources: JSON.stringify([...JSON.parse(declared.config.resources), ...actions]),
      },
      secrets: { "crm:apiToken": emulator.apiToken, "chat:apiToken": emulator.apiToken },
    });
  });
  after(async () => {
    stack?.remove();
    await emulator?.close();
    if (oldInstall) rmSync(oldInstall, { recursive: true, force: true });
  });

  it("takes every program written against the package before the change: each Args it passed is taken, each output it read is there, of a type it can read", () => {
    // Both packages' types, side by side, compared by the compiler. The earlier one's are copied out of
    // node_modules: the compiler takes two packages of one name and version (pulumi-crm 0.1.0) for one.
    const dir = mkdtempSync(join(repoRoot, ".work", "upgrade-types-"));
    try {
      cpSync(join(oldInstall, "node_modules", "pulumi-crm", "dist", "provider"), join(dir, "before"), { recursive: true });
      const checks = earlier.flatMap(({ namespace, className }) => [
        `taken<before.${namespace}.${className}Args, now.${namespace}.${className}Args>();`,
        `kept<before.${namespace}.${className}, now.${namespace}.${className}>();`,
      ]);
      const file = join(dir, "compatible.ts");
      writeFileSync(
        file,
        [
          'import * as before from "./before";',
          `import * as now from "${join(newModules, "pulumi-crm")}";`,
          "const taken = <Old, New>(..._: [Old] extends [New] ? [] : [never]) => undefined;",
          "const kept = <Old, New>(..._: { [K in keyof Old]: K extends keyof New ? ([New[K]] extends [Old[K]] ? never : K) : K }[keyof Old] extends never ? [] : [never]) => undefined;",
          ...checks,
          // A pair that must not compare: the comparison is made at all (both packages' types were found).
          "taken<{ unrelated: true }, now.crm.AccountArgs>();",
        ].join("\n"),
      );
      // Node's types as a program has them: without them the SDK's types lose members, and any type compares.
      const options = {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.CommonJS,
        types: ["node"],
        typeRoots: [join(newModules, "@types")],
      };
      const program = ts.createProgram([file], options);
      const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
        const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line : -1;
        return `${diagnostic.file?.text.split("\n")[line] ?? ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`;
      });
      assert.deepEqual(problems, ["taken<{ unrelated: true }, now.crm.AccountArgs>();: Expected 1 arguments, but got 0."]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("deploys every object with the package before the change, its state requiring the resource modules by path", async () => {
    useNodeModules(program, join(oldInstall, "node_modules"));
    assert.ok(!existsSync(join(program, "node_modules", "pulumi-crm", "dist", "provider", "kit", "declaration.js")), "the package before the change");
    await stack.deploy();
    const tally = await tallyService(emulator, stack.resources());
    assert.deepEqual([tally.objects, tally.missing, tally.orphans], [objects, [], []]);
    const required = new Set([...stack.stateText().matchAll(/require\(\\"(pulumi-crm\/dist\/provider\/[\w/-]+(?:\.js)?)\\"\)/g)].map((match) => match[1]));
    assert.equal(
      new Set(
        stack
          .resources()
          .map((resource) => resource.type)
          .filter((type) => type.startsWith("pulumi-nodejs:dynamic/")),
      ).size,
      earlier.length,
      "every type the package had",
    );
    for (const resource of earlier)
      assert.ok(
        [...required].some((path) => path.includes(`/${resource.namespace}/${resource.name}`)),
        `${typeOf(resource)}'s module`,
      );
    for (const path of required) assert.ok(existsSync(join(newModules, path.endsWith(".js") ? path : `${path}.js`)), `the new package has ${path}`);
  });

  it("with the package of this tree: refresh finds no change", async () => {
    useNodeModules(program, newModules);
    assert.ok(existsSync(join(program, "node_modules", "pulumi-crm", "dist", "provider", "kit", "declaration.js")), "the package of this tree");
    const drift = await stack.driftCheck();
    assert.equal(drift.exitCode, 0, output(drift));
    const refresh = await stack.refresh();
    assert.equal(refresh.exitCode, 0, output(refresh));
    assert.equal(refresh.steps.update + refresh.steps.delete, 0, output(refresh));
  });

  it("up changes nothing and sends no request", async () => {
    const requests = await requestCount(emulator);
    const up = await stack.up();
    assert.equal(up.exitCode, 0, output(up));
    assert.equal(up.changes, false, output(up));
    assert.equal((await requestCount(emulator)) - requests, 0);
  });

  it("destroy deletes every object", async () => {
    const destroy = await stack.destroy();
    assert.equal(destroy.exitCode, 0, output(destroy));
    const tally = await tallyService(emulator, []);
    assert.equal(tally.objects, 0);
  });
});
