// One account's setup in every account, on the dynamic classes (TypeScript) and the real CLI:
// issue 53's done-when steps (test/support/one-setup.ts).

import { installProgram } from "../../scripts/harness/packed-program";
import { itStandsOneSetupUpInEveryAccount } from "../support/one-setup";

describe("one setup in every account: the TypeScript program pulumi-crm export writes, on the real CLI", function () {
  this.timeout(20 * 60_000);
  itStandsOneSetupUpInEveryAccount("typescript", { flags: [], install: async (exported, name) => installProgram(exported, `one-setup-${name}`) });
});
