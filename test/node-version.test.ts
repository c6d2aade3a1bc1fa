import assert from "node:assert/strict";
import { carriesInspectLoop, nodeLoopWarning } from "../provider/node-version";

describe("the Node.js releases whose util.inspect loops on an error (nodejs/node#64011)", () => {
  it("are those measured: 20.19.6 on, 22.20 on, 24.7 to 24.18, 26.0 to 26.5", () => {
    const affected = ["v20.19.6", "v20.20.2", "v22.20.0", "v22.23.3", "v24.7.0", "v24.18.0", "v26.0.0", "v26.5.1"];
    const unaffected = ["v18.20.0", "v20.19.5", "v22.19.0", "v24.6.0", "v24.19.0", "v24.21.0", "v26.6.0", "v26.10.0", "v27.0.0"];
    assert.deepEqual(
      affected.filter((version) => !carriesInspectLoop(version)),
      [],
    );
    assert.deepEqual(unaffected.filter(carriesInspectLoop), []);
  });

  it("are warned of in one short line, the fix first: the fixed releases, then the remedy that patches nothing, then why", () => {
    assert.equal(
      nodeLoopWarning("v22.23.3"),
      "warning: pulumi-crm: use Node.js 24.19+ or 26.6+, or NODE_OPTIONS=--stack-trace-limit=0: Node.js v22.23.3 can take minutes to print errors (nodejs/node#64011)",
    );
    // The longest release string of an affected line still fits a CI log's line.
    assert.ok(nodeLoopWarning("v20.19.10").length <= 160, nodeLoopWarning("v20.19.10"));
  });
});
