// sdk-docs/api is generated (`npm run docs`: TypeDoc with typedoc-plugin-markdown, typedoc.json).
// This fails when it differs from what the code generates now, so the reference never goes stale.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../scripts/harness/packed-program";

function filesUnder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path, "utf8"));
    }
  };
  walk(dir);
  return files;
}

describe("sdk-docs/api, the generated API reference", function () {
  this.timeout(120_000);

  it("is what `npm run docs` generates from the code now", async () => {
    const out = mkdtempSync(join(tmpdir(), "pulumi-crm-api-"));
    try {
      await promisify(execFile)(process.execPath, [join(repoRoot, "node_modules", "typedoc", "bin", "typedoc"), "--out", out, "--logLevel", "Error"], {
        cwd: repoRoot,
      });
      const generated = filesUnder(out);
      const committed = filesUnder(join(repoRoot, "sdk-docs", "api"));
      const stale = [...new Set([...generated.keys(), ...committed.keys()])].filter((file) => generated.get(file) !== committed.get(file)).sort();
      assert.deepEqual(stale, [], `sdk-docs/api is out of date in these files; run \`npm run docs\` and commit the result`);
      console.log(`      ${committed.size} pages, up to date`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
