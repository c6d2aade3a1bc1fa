// coalescing and answerInBulk on their own, without a service: which calls go out
// together, and how each call's own promise settles.

import assert from "node:assert/strict";
import { answerInBulk, type BulkSteps, coalescing, type GroupWindow, type Waiting } from "../../provider/crm/service/coalesce";

/** A coalescing function whose groups are recorded, and answered by `settle`. */
function recordingGroups(
  settle: (group: Array<Waiting<string, string>>) => Promise<void> = async (group) => {
    for (const call of group) call.resolve(`answer to ${call.request}`);
  },
  window?: GroupWindow,
) {
  const groups: string[][] = [];
  const call = coalescing<string, string>(async (group) => {
    groups.push(group.map((waiting) => waiting.request));
    await settle(group);
  }, window);
  return { call, groups };
}

describe("coalescing", () => {
  it("hands calls of one key that arrive together over as one group, and answers each its own", async () => {
    const { call, groups } = recordingGroups();
    const answers = await Promise.all(["a", "b", "c"].map((request) => call("notes", request)));
    assert.deepEqual(answers, ["answer to a", "answer to b", "answer to c"]);
    assert.deepEqual(groups, [["a", "b", "c"]]);
  });

  it("keeps keys apart: a group holds calls of one key only", async () => {
    const { call, groups } = recordingGroups();
    await Promise.all([call("notes", "a"), call("fields", "b"), call("notes", "c")]);
    assert.deepEqual(groups.sort(), [["a", "c"], ["b"]]);
  });

  it("opens a new group for calls after a group closed", async () => {
    const { call, groups } = recordingGroups();
    await call("notes", "a");
    await call("notes", "b");
    assert.deepEqual(groups, [["a"], ["b"]]);
  });

  it("with closeWhenFull, closes a group once it holds as many calls as were ever unsettled at once for its key, without waiting out the quiet", async () => {
    // Answered a turn of the event loop later, as a request would be.
    const later = async (group: Array<Waiting<string, string>>) => {
      await new Promise((resolve) => setImmediate(resolve));
      for (const call of group) call.resolve(call.request);
    };
    const { call, groups } = recordingGroups(later, { quietMs: 20, maxOpenMs: 1_000, closeWhenFull: true });
    // The first group closes after the quiet; the next as soon as it holds 2 calls, whatever the time.
    await Promise.all(["a", "b"].map((request) => call("notes", request)));
    // A third call while those 2 are unanswered: 3 are seen at once, and the group after closes at 3.
    await Promise.all(["c", "d", "e"].map((request) => call("notes", request)));
    // Another key's first group waits the quiet out, and closes after.
    await Promise.all([call("fields", "f"), call("notes", "g"), call("notes", "h"), call("notes", "i")]);
    assert.deepEqual(groups, [["a", "b"], ["c", "d"], ["e"], ["g", "h", "i"], ["f"]]);
  });

  it("fails the calls the answer left unsettled with its error, and keeps the answers it gave", async () => {
    const { call } = recordingGroups(async (group) => {
      group[0].resolve("first answered");
      throw new Error("the bulk request failed");
    });
    const [first, second] = await Promise.allSettled([call("notes", "a"), call("notes", "b")]);
    assert.deepEqual(first, { status: "fulfilled", value: "first answered" });
    assert.equal(second.status, "rejected");
    assert.match((second as PromiseRejectedResult).reason.message, /the bulk request failed/);
  });
});

describe("answerInBulk", () => {
  /** Calls of `requests`, with their promises, as a coalescing group hands them over. */
  function group(...requests: string[]) {
    const calls = requests.map((request) => {
      let waiting!: Waiting<string, string>;
      const settled = new Promise<string>((resolve, reject) => (waiting = { request, resolve, reject }));
      return { waiting, settled };
    });
    return { calls: calls.map((call) => call.waiting), settled: Promise.allSettled(calls.map((call) => call.settled)) };
  }

  /** Steps that record what went out; `bulkAnswers` says whether each bulk is accepted. */
  function recordingSteps(bulkAnswers: boolean[] = [], single = async (request: string) => `alone ${request}`) {
    const sent: string[] = [];
    const steps: BulkSteps<string, string> = {
      sendBulk: async (requests) => {
        sent.push(`bulk ${requests.join(",")}`);
        return bulkAnswers.shift() ?? true;
      },
      afterBulk: async (calls) => {
        // Settles all but a call named "lost", which goes out on its own.
        for (const call of calls.filter((waiting) => waiting.request !== "lost")) call.resolve(`bulk ${call.request}`);
        return calls.filter((call) => call.request === "lost");
      },
      single: (request) => {
        sent.push(`single ${request}`);
        return single(request);
      },
    };
    return { steps, sent };
  }

  it("sends bulks of at most maxItems calls, and a chunk of one on its own", async () => {
    const { calls, settled } = group("a", "b", "c", "d", "e");
    const { steps, sent } = recordingSteps();
    await answerInBulk(calls, 2, steps);
    assert.deepEqual(sent, ["bulk a,b", "bulk c,d", "single e"]);
    assert.deepEqual(
      (await settled).map((result) => (result as PromiseFulfilledResult<string>).value),
      ["bulk a", "bulk b", "bulk c", "bulk d", "alone e"],
    );
  });

  it("sends every call of a refused bulk on its own, so that each failure lands on its own resource", async () => {
    const { calls, settled } = group("a", "bad", "c");
    const { steps, sent } = recordingSteps([false], async (request) => {
      if (request === "bad") throw new Error("bad is invalid");
      return `alone ${request}`;
    });
    await answerInBulk(calls, 5, steps);
    assert.deepEqual(sent, ["bulk a,bad,c", "single a", "single bad", "single c"]);
    const [a, bad, c] = await settled;
    assert.deepEqual(
      [a, c],
      [
        { status: "fulfilled", value: "alone a" },
        { status: "fulfilled", value: "alone c" },
      ],
    );
    assert.match((bad as PromiseRejectedResult).reason.message, /bad is invalid/);
  });

  it("sends on its own each call a bulk did not settle", async () => {
    const { calls, settled } = group("a", "lost", "c");
    const { steps, sent } = recordingSteps();
    await answerInBulk(calls, 5, steps);
    assert.deepEqual(sent, ["bulk a,lost,c", "single lost"]);
    assert.deepEqual(
      (await settled).map((result) => (result as PromiseFulfilledResult<string>).value),
      ["bulk a", "alone lost", "bulk c"],
    );
  });
});
