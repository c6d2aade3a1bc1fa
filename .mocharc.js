// Mocha's configuration, and the suite's two tiers (scripts/test.ts runs them; `npm test` both):
// - fast: every file that runs no Pulumi program (provider modules against the emulator in
//   process, units, contract and emulator tests), in one process;
// - programs: every file that installs the packed package or needs the CLI, and so runs as users do: Pulumi
//   programs on the real CLI (scripts/harness/pulumi-cli.ts), the installed emulator command, the
//   package's contents. In parallel workers: their time goes to child processes.
// A file is in the program tier when it uses what installs the package, so a new program test
// needs no list. A file named on the command line (`npx mocha test/crm/message.test.ts`) runs alone.
const { readdirSync, readFileSync } = require("node:fs");

const installsThePackage =
  /\b(installExample|installProgram|installNativeAccounts|installYamlProgram|installedEmulatorBin|packedTarball|ensureToolchain|releaseForTests)\(/;
const testFiles = () =>
  readdirSync("test", { recursive: true })
    .map((name) => `test/${name}`)
    .filter((file) => file.endsWith(".test.ts"))
    .sort();
const tierOf = (file) => (installsThePackage.test(readFileSync(file, "utf8")) ? "programs" : "fast");

const tier = process.env.PULUMI_CRM_TIER;
const tierOptions =
  tier === "fast"
    ? { spec: testFiles().filter((file) => tierOf(file) === "fast"), parallel: false }
    : tier === "programs"
      ? { spec: testFiles().filter((file) => tierOf(file) === "programs"), parallel: true, jobs: 3 }
      : {};

module.exports = {
  require: ["ts-node/register/transpile-only", "test/support/global-setup.ts"],
  extension: ["ts"],
  timeout: 60000,
  exit: true,
  ...tierOptions,
};
