// Mocha's configuration, and the suite's two tiers (scripts/test.ts runs them; `npm test` both),
// chosen by a test file's folder:
// - programs: the folders whose files install the packed package or need the CLI, and so run as users
//   do: Pulumi programs on the real CLI (scripts/harness/pulumi-cli.ts), the installed emulator
//   command, the package's contents. In parallel workers: their time goes to child processes.
// - fast: every other folder: provider modules against the emulator in process, units, contract and
//   emulator tests, in one process.
// test/tiers.test.ts holds every file that installs the package to a program folder. A file named
// on the command line (`npx mocha test/crm/message.test.ts`) runs alone.
const { readdirSync } = require("node:fs");

/** The program tier's folders under test/. */
const programFolders = ["lifecycle", "plugin", "fleet", "reliability", "package"];
const testFiles = () =>
  readdirSync("test", { recursive: true })
    .map((name) => `test/${name}`)
    .filter((file) => file.endsWith(".test.ts"))
    .sort();
const tierOf = (file) => (programFolders.includes(file.split("/")[1]) ? "programs" : "fast");

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
  programFolders,
  ...tierOptions,
};
