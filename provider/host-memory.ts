// The provider host's memory (issue 11). Every dynamic provider of a program runs in
// one host process, which the SDK starts with V8's defaults and which already holds
// about 120 MiB once the SDK has loaded. Two defaults then cost a large deployment
// some 45 MiB more at its peak, for no gain at a few requests per second:
// - undici parses HTTP with a WebAssembly module (llhttp), which V8 recompiles with its
//   optimizing compiler once it is hot: about 30 MiB at the peak. Its baseline code
//   (Liftoff) parses a few answers per second just as well.
// - The young generation, grown to 16 MiB by the SDK's own load, doubles under the gRPC
//   traffic of hundreds of resources. Kept where it is, young collections run more often.
// Both are V8 flags that take effect when read (a WebAssembly compile, a young
// generation's growth), so they can be set once the host runs; they change no result.

import { setFlagsFromString } from "node:v8";

let kept = false;

/** Called in the provider host only (from configure), before its first request. */
export function keepHostMemorySmall(): void {
  if (kept) return;
  kept = true;
  setFlagsFromString("--liftoff-only");
  setFlagsFromString("--semi-space-growth-factor=1");
}
