// Mocha's configuration. For `npm test`, the whole suite, the test files are handed to the
// parallel workers in this order: those that run Pulumi programs first (the engine's, which need
// no pack, before those of the packed package), the short unit files last. On 2 cores, a long
// file started late left a core idle at the end of the run while it finished alone. A file named
// on the command line (`npx mocha test/crm/message.test.ts`) runs alone.
const { readdirSync } = require("node:fs");

const longFirst = ["test/engine", "test/emulator", "test/lifecycle", "test/reliability", "test/api-docs"];
const rank = (file) => {
  const index = longFirst.findIndex((prefix) => file.startsWith(prefix));
  return index === -1 ? longFirst.length : index;
};
const wholeSuite = () =>
  readdirSync("test", { recursive: true })
    .map((name) => `test/${name}`)
    .filter((file) => file.endsWith(".test.ts"))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

module.exports = {
  require: ["ts-node/register/transpile-only", "test/support/global-setup.ts"],
  extension: ["ts"],
  ...(process.env.npm_lifecycle_event === "test" ? { spec: wholeSuite() } : {}),
  timeout: 60000,
  parallel: true,
  jobs: 3,
  exit: true,
};
