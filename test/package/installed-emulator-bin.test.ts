// The `pulumi-crm-emulator` command as the package installs it: built JavaScript from the packed
// tarball, as users run it. In the program tier, since it needs the pack.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { HELP, USAGE } from "../../emulator/src/core/cli";
import { installedEmulatorBin } from "../../scripts/harness/packed-program";

describe("the pulumi-crm-emulator command, installed", () => {
  // The command as the package installs it.
  let bin: string;
  before(function () {
    this.timeout(600_000); // the first test of a run to need the package packs and installs it
    bin = installedEmulatorBin();
  });

  /** Runs the bin to its exit. */
  async function runBin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    return { code, stdout, stderr };
  }

  for (const flag of ["--help", "-h"]) {
    it(`prints the usage, every option explained and an example on ${flag}, and exits 0`, async () => {
      const { code, stdout, stderr } = await runBin([flag]);
      assert.deepEqual([code, stderr], [0, ""]);
      assert.equal(stdout, HELP);
      assert.ok(stdout.startsWith(`${USAGE}\n`));
      assert.ok(stdout.endsWith("\n"), "the help's last line is unfinished");
      for (const option of [
        "--port N",
        "--token T",
        "--rate-limit RPS",
        "--crm-rate-limit RPS",
        "--chat-rate-limit RPS",
        "--faults SPEC",
        "--seed N",
        "--fixtures FILE",
        "--accounts NAME,...",
        "--data FILE",
        "--execution-duration MS",
        "-h, --help",
      ]) {
        assert.match(stdout, new RegExp(`^  ${option} +\\S`, "m"), `no line explains ${option}`);
      }
      assert.match(stdout, /^example:\n {2}pulumi-crm-emulator --/m);
    });
  }

  it("lists every flag of the help, and nothing else, in the flag table of sdk-docs/emulator.md", () => {
    const synopses = (lines: string[], pattern: RegExp) => lines.flatMap((line) => pattern.exec(line)?.[1] ?? []);
    const helpFlags = synopses(HELP.split("\n"), /^ {2}(-\S+(?: \S+|, -\S+)?) {2,}/);
    const doc = readFileSync(join(__dirname, "../../sdk-docs/emulator.md"), "utf8");
    const table = doc.slice(doc.indexOf("| Flag | Meaning |")).split("\n\n")[0].split("\n");
    // A row per flag, two cells each: a pipe inside a cell, or a line that is not a row, would show here.
    assert.ok(
      table.slice(2).every((row) => /^\| `[^|]+` \| [^|]+ \|$/.test(row)),
      table.join("\n"),
    );
    const docFlags = synopses(table.slice(2), /^\| (.+?) \|/).map((cell) => cell.replace(/`/g, ""));
    assert.deepEqual(docFlags, helpFlags);
  });

  it("prints the addresses as the first stdout line and stops cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, [bin, "--port", "0", "--token", "bin-key", "--rate-limit", "0", "--accounts", "acme,globex"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const firstLine = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
    const printed = JSON.parse(firstLine);
    assert.deepEqual(Object.keys(printed), ["crmUrl", "chatUrl", "apiToken", "accounts"]);
    assert.equal(printed.apiToken, "bin-key");
    const reply = await fetch(`${printed.crmUrl}/api/3/accounts`, { headers: { "Api-Token": "bin-key" } });
    assert.equal(reply.status, 200);
    assert.deepEqual(Object.keys(printed.accounts), ["acme", "globex"]);
    assert.equal(printed.accounts.acme.crmUrl, `${printed.crmUrl}/acct/acme`);
    const named = await fetch(`${printed.accounts.acme.crmUrl}/api/3/accounts`, { headers: { "Api-Token": printed.accounts.acme.apiToken } });
    assert.equal(named.status, 200);
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
  });

  it("exits 2 with a message and the usage on bad flags", async () => {
    const { code, stdout, stderr } = await runBin(["--rate-limit", "fast"]);
    assert.deepEqual([code, stdout], [2, ""]);
    assert.match(stderr, /--rate-limit must be a non-negative integer/);
    assert.ok(stderr.includes(`${USAGE}\n(--help explains each option)`), stderr);
  });
});
