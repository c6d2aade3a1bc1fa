// The action kit on its own: the rule for running an action again (triggers and the
// other run inputs, as a replace or an update), and the polling helper's pace, deadline
// and progress lines, on a clock that moves only when slept on.

import assert from "node:assert/strict";
import { z } from "zod";
import { actionKind, type Clock, diffAction, documentedPace, recordedRead, runsAgain, triggersInput, type Wait, waitUntilEnded } from "../provider/kit/action";
import { strictObject, unknownValue } from "../provider/kit/inputs";

const schema = strictObject({ target: z.string(), triggers: triggersInput, timeoutSeconds: z.number().optional() });
const declaration = { namespace: "crm" as const, type: "test.Action", inputSchema: schema, replaceOnChanges: [] };
const common = { label: () => "test.Action" };
const replaced = actionKind(declaration, { ...common, runOn: ["target"], runAgainAs: "replace" });
const updated = actionKind(declaration, { ...common, runOn: ["target"], runAgainAs: "update" });
const unfinished = "its run did not finish";
const olds = { target: "a", triggers: [1], timeoutSeconds: 5 };

describe("action kit: running again", () => {
  it("takes triggers as any list, [] when not given, and names anything else", () => {
    assert.deepEqual(triggersInput.parse(undefined), []);
    assert.deepEqual(triggersInput.parse([1, "two", { three: 3 }]), [1, "two", { three: 3 }]);
    assert.equal(triggersInput.safeParse("v2").error?.issues[0].message, "must be a list");
  });

  it("runs again when triggers or another run input change, as a replace or as an update", () => {
    for (const news of [
      { ...olds, triggers: [2] },
      { ...olds, target: "b" },
      { ...olds, triggers: [unknownValue] },
    ]) {
      const field = news.target === "b" ? "target" : "triggers";
      assert.deepEqual(diffAction(replaced, olds, news, undefined), { fields: [{ field, replace: true }] });
      assert.deepEqual(diffAction(updated, olds, news, undefined), { fields: [{ field, replace: false }] });
      assert.equal(runsAgain(updated, olds, news), true);
    }
    assert.deepEqual([...replaced.runInputs], ["target", "triggers"]);
    assert.deepEqual([...updated.runInputs], ["target", "triggers"]);
  });

  it("changes a setting in place without running again, and shows no change for the same inputs", () => {
    const news = { ...olds, timeoutSeconds: 60 };
    for (const kind of [replaced, updated]) {
      assert.deepEqual(diffAction(kind, olds, news, undefined), { fields: [{ field: "timeoutSeconds", replace: false }] });
      assert.equal(runsAgain(kind, olds, news), false);
      assert.deepEqual(diffAction(kind, olds, { ...olds, __provider: "new code" }, undefined), { fields: [] });
    }
  });

  it("carries an unfinished run on in place, a change tied to no input, unless a new run replaces it", () => {
    assert.deepEqual(diffAction(updated, olds, olds, unfinished), { fields: [], unfinished });
    assert.deepEqual(diffAction(replaced, olds, olds, unfinished), { fields: [], unfinished });
    assert.deepEqual(diffAction(replaced, olds, { ...olds, triggers: [2] }, unfinished), { fields: [{ field: "triggers", replace: true }] });
  });

  it("refreshes to the recorded state, its inputs being the schema's fields that are set", () => {
    const state = { target: "a", triggers: [], executionId: "run-1" };
    assert.deepEqual(recordedRead(updated, "run-1", { refresh: { ...state, __provider: "code" } }), {
      id: "run-1",
      outputs: state,
      inputs: { target: "a", triggers: [] },
    });
  });
});

/** A clock that moves only when slept on, recording each sleep. */
function steppingClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  const sleep = async (ms: number) => {
    slept.push(ms);
    now += ms;
  };
  return { slept, now: () => now, sleep };
}

/** A wait for a counter that ends at `endAt`, or never; what it saw is `looks`. */
function countingWait(endAt = Infinity, extra: Partial<Wait<number>> = {}): Wait<number> & { looks: number } {
  const wait: Wait<number> & { looks: number } = {
    looks: 0,
    look: async () => ++wait.looks,
    hasEnded: (seen: number) => seen >= endAt,
    timeoutMs: 60_000,
    outlasted: (seen: number) => new Error(`still at ${seen}`),
    ...extra,
  };
  return wait;
}

describe("action kit: waiting until the work ends", () => {
  it("looks at once, then after 250 ms growing 1.5 times up to 5 s, and returns what it saw at the end", async () => {
    const clock = steppingClock();
    const wait = countingWait(10);
    assert.equal(await waitUntilEnded(wait, { clock }), 10);
    assert.equal(wait.looks, 10);
    assert.deepEqual(clock.slept, [250, 375, 562.5, 843.75, 1265.625, 1898.4375, 2847.65625, 4271.484375, 5000]);
    assert.deepEqual(documentedPace, { firstMs: 250, longestMs: 5_000, progressEveryMs: 10_000 });
  });

  it("waits one interval before the first look when asked to", async () => {
    const clock = steppingClock();
    const wait = countingWait(2, { lookAfterFirstInterval: true });
    assert.equal(await waitUntilEnded(wait, { clock }), 2);
    assert.deepEqual(clock.slept, [250, 375]);
  });

  it("looks once more at the deadline, then fails with what it saw last", async () => {
    const clock = steppingClock();
    const wait = countingWait(Infinity, { timeoutMs: 1_000 });
    await assert.rejects(waitUntilEnded(wait, { clock }), /^Error: still at 4$/);
    // 250 + 375 and then the 375 ms left, not 562.5.
    assert.deepEqual(clock.slept, [250, 375, 375]);
  });

  it("logs a progress line whenever it changes", async () => {
    const lines: string[] = [];
    const stages = ["queued", "queued", "running", "running", "done"];
    const wait = countingWait(5, { progress: (seen) => `at ${stages[(seen ?? 1) - 1]}` });
    await waitUntilEnded(wait, { clock: steppingClock(), log: (line) => lines.push(line) });
    assert.deepEqual(lines, ["at queued", "at running", "at done"]);
  });

  it("repeats the progress line while one look takes longer than progressEveryMs", async () => {
    const lines: string[] = [];
    let repeated: () => void = () => {};
    const twice = new Promise<void>((resolve) => (repeated = resolve));
    const log = (line: string) => {
      lines.push(line);
      if (lines.filter((logged) => logged === "waiting for it to appear").length === 2) repeated();
    };
    // The one look answers only once the line was logged twice: the heartbeat's doing, as nothing was seen yet.
    const wait = countingWait(1, { look: async () => twice.then(() => 1), progress: (seen) => (seen ? "seen" : "waiting for it to appear") });
    await waitUntilEnded(wait, { pace: { ...documentedPace, progressEveryMs: 5 }, log });
    assert.deepEqual(lines.slice(0, 2), ["waiting for it to appear", "waiting for it to appear"]);
    assert.equal(lines.at(-1), "seen");
  });
});
