// One account's setup in every account, in Pulumi YAML on the native plugin and the real CLI:
// issue 53's done-when steps (test/support/one-setup.ts).

import { installYamlProgram } from "../../scripts/harness/plugin-program";
import { itStandsOneSetupUpInEveryAccount } from "../support/one-setup";

describe("one setup in every account: the YAML program pulumi-crm export writes, on the plugin and the real CLI", function () {
  this.timeout(20 * 60_000);
  itStandsOneSetupUpInEveryAccount("yaml", {
    flags: ["--language", "yaml"],
    install: async (exported, name) => (await installYamlProgram(exported, `one-setup-${name}`)).program,
  });
});
