// The emulator as a sandbox keeps its data: with --data, every acknowledged write
// survives kill -9 at any moment, and a data file that is not emulator state is
// refused and left untouched.

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { installedEmulatorBin } from "../../scripts/harness/packed-program";

const token = "persistence-key";
/** The `pulumi-crm-emulator` command as the package installs it. */
let bin: string;

interface Started {
  child: ChildProcess;
  crmUrl: string;
}

function startBin(dataFile: string): Promise<Started> {
  const child = spawn(process.execPath, [bin, "--port", "0", "--token", token, "--rate-limit", "0", "--data", dataFile], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => resolve({ child, crmUrl: JSON.parse(line).crmUrl }));
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once("exit", resolve)));
}

const call = async (crmUrl: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${crmUrl}${path}`, {
    method,
    headers: { "Api-Token": token, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
};

describe("emulator --data", function () {
  this.timeout(120_000);
  let dir: string;
  before(function () {
    this.timeout(600_000); // the first test of a run to need the package packs and installs it
    bin = installedEmulatorBin();
  });
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "emulator-data-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps every acknowledged write across kill -9 at ten moments", async () => {
    const dataFile = join(dir, "state.json");
    const acknowledged: string[] = [];
    // Deterministic kill moments: after 1 to 10 further acknowledged creates, with writes in flight.
    for (let round = 0; round < 10; round++) {
      const { child, crmUrl } = await startBin(dataFile);
      const listed = await call(crmUrl, "GET", "/api/3/accounts?limit=100");
      const names: string[] = listed.body.accounts.map((account: { name: string }) => account.name);
      for (const name of acknowledged) assert.ok(names.includes(name), `round ${round}: ${name} was acknowledged before the kill and is gone`);
      const target = acknowledged.length + 1 + (round % 4);
      let next = 0;
      // Four writers at once, so that the kill lands while writes are under way.
      const writer = async () => {
        while (acknowledged.length < target) {
          const name = `Round ${round} account ${next++}`;
          const created = await call(crmUrl, "POST", "/api/3/accounts", { account: { name } }).catch(() => undefined);
          if (created?.status === 201) acknowledged.push(name);
        }
      };
      await Promise.race([Promise.all([writer(), writer(), writer(), writer()]), new Promise((resolve) => setTimeout(resolve, 10_000))]);
      child.kill("SIGKILL");
      await exitOf(child);
    }
    assert.ok(acknowledged.length >= 20);
  });

  it("refuses a data file that is not emulator state, and leaves it as it was", async () => {
    for (const text of ['{"crm": {"accounts": [', "[]", "<html>oops</html>"]) {
      const dataFile = join(dir, "corrupt.json");
      writeFileSync(dataFile, text);
      const child = spawn(process.execPath, [bin, "--port", "0", "--data", dataFile], { stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr!.on("data", (chunk) => (stderr += chunk));
      assert.notEqual(await exitOf(child), 0);
      assert.match(stderr, /the data file .*corrupt\.json is not emulator state .*it was left as it is/);
      assert.equal(readFileSync(dataFile, "utf8"), text);
    }
  });
});
