// The suite's tiers are its folders (.mocharc.js): a test that installs the packed package or
// needs the CLI belongs in a program folder, where it runs in parallel workers, and nothing else does.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(__dirname, "..");
const { programFolders } = require(join(root, ".mocharc.js")) as { programFolders: string[] };
const installsThePackage =
  /\b(installExample|installProgram|installNativeAccounts|installYamlProgram|installedEmulatorBin|packedTarball|ensureToolchain|releaseForTests)\(/;

describe("the suite's tiers", () => {
  const files = (readdirSync(join(root, "test"), { recursive: true }) as string[]).filter((file) => file.endsWith(".test.ts"));
  const inProgramFolder = (file: string) => file.includes("/") && programFolders.includes(file.split("/")[0]);

  it("hold every test that installs the package or needs the CLI in a program folder", () => {
    const misplaced = files.filter((file) => installsThePackage.test(readFileSync(join(root, "test", file), "utf8")) && !inProgramFolder(file));
    assert.deepEqual(misplaced, []);
  });

  it("hold in the program folders only tests that run programs, the package or the CLI", () => {
    const misplaced = files.filter((file) => inProgramFolder(file) && !installsThePackage.test(readFileSync(join(root, "test", file), "utf8")));
    assert.deepEqual(misplaced, []);
  });
});
