// The functions a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file) spent its time in: self
// time (in the function itself) and inclusive time (with what it called), by function, and self
// time by package, for the benchmarks' "where the time goes".

import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  /** Microseconds before each sample. */
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Sampled time, idle excluded, ms. */
  busyMs: number;
  /** [function, ms], largest first. */
  self: Array<[string, number]>;
  /** Of the functions of scripts, not Node's own. */
  inclusive: Array<[string, number]>;
  byPackage: Array<[string, number]>;
}

/** A path from node_modules on (`@pulumi/pulumi/runtime/...`), Node's own modules as `node:...`. */
const shortUrl = (url: string) => url.replace(/^file:\/\//, "").replace(/^.*\/node_modules\//, "");
const packageOf = (url: string) => {
  const short = shortUrl(url);
  if (short === "") return "(V8, no script)";
  if (short.startsWith("node:")) return "node: (Node.js's own)";
  if (short === url.replace(/^file:\/\//, "")) return "the program's own files";
  return /^(@[^/]+\/[^/]+|[^/]+)/.exec(short)![1];
};
const nameOf = ({ functionName, url, lineNumber }: ProfileNode["callFrame"]) =>
  url ? `${functionName || "(anonymous)"} ${shortUrl(url)}:${lineNumber + 1}` : functionName;

const largest = (totals: Map<string, number>, count: number) =>
  [...totals.entries()]
    .sort(([, a], [, b]) => b - a)
    .slice(0, count)
    .map(([key, us]): [string, number] => [key, us / 1000]);

export function summarizeCpuProfile(file: string, count = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byPackage = new Map<string, number>();
  const add = (totals: Map<string, number>, key: string, us: number) => totals.set(key, (totals.get(key) ?? 0) + us);
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const us = profile.timeDeltas[index] ?? 0;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") return;
    busy += us;
    add(self, nameOf(frame), us);
    add(byPackage, packageOf(frame.url), us);
    // Each function once per sample, however deep it recurses; Node's own frames (the module
    // loader, the task queues) and V8's enclose everything and say nothing.
    const onStack = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parentOf.get(node)) {
      const { callFrame } = byId.get(node)!;
      if (callFrame.url && !callFrame.url.startsWith("node:")) onStack.add(nameOf(callFrame));
    }
    for (const name of onStack) add(inclusive, name, us);
  });
  return { busyMs: busy / 1000, self: largest(self, count), inclusive: largest(inclusive, count), byPackage: largest(byPackage, count) };
}
