// What a provider host says of adoptions: a line per object taken over, and, when the engine
// ends the host with SIGINT, one line counting them before the host goes as the signal takes
// it. In a process of its own, as the provider host is; the real CLI's output of it is in
// test/lifecycle/export.test.ts.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** A process standing for a provider host (kept alive, as by its gRPC server) that adopts `ids`, ended with SIGINT once it has said so. */
async function hostAdopting(ids: string[]): Promise<{ lines: string[]; signal: NodeJS.Signals | null }> {
  const adoption = join(__dirname, "..", "provider", "kit", "adoption.ts");
  const script = `const { announceAdoption } = require(${JSON.stringify(adoption)});
for (const id of ${JSON.stringify(ids)}) announceAdoption('crm.Account "Acme"', id);
setInterval(() => {}, 60_000);
console.log("ready");`;
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (line === "ready") child.kill("SIGINT");
    else lines.push(line);
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("close", (_code, signal) => resolve(signal)));
  return { lines, signal };
}

describe("adoptions said by a provider host", function () {
  this.timeout(60_000);

  it("a line per object, then at SIGINT one line counting them; the host still ends by the signal", async () => {
    const { lines, signal } = await hostAdopting(["12", "13"]);
    assert.equal(signal, "SIGINT");
    assert.deepEqual(lines.slice(0, 2), [
      'info: [runtime] crm.Account "Acme": took over existing object 12',
      'info: [runtime] crm.Account "Acme": took over existing object 13',
    ]);
    assert.equal(lines.length, 3, lines.join("\n"));
    assert.match(
      lines[2],
      /^info: \[runtime\] pulumi-crm: this deployment took over 2 existing objects, now managed by this stack: .* unless it is protected or has retainOnDelete/,
    );
  });

  it("nothing at SIGINT from a host that took nothing over", async () => {
    assert.deepEqual(await hostAdopting([]), { lines: [], signal: "SIGINT" });
  });
});
