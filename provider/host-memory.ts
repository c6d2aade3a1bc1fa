// The provider host's memory (issue 11). Every dynamic provider of a program runs in
// one host process, which the SDK starts with V8's defaults and which holds about
// 120 MiB once the SDK has loaded. undici parses HTTP with a WebAssembly module
// (llhttp), which V8 recompiles with its optimizing compiler once it is hot: some
// 27 MiB more at the peak of a large deployment, for nothing at a few requests per
// second, which its baseline code (Liftoff) parses just as well. The flag takes effect
// at the next WebAssembly compile, so it can be set once the host runs; it changes no
// result.

import { setFlagsFromString } from "node:v8";

/** Called in the provider host only (from each resource module's configure, which is harmless), before its first request loads undici. */
export function keepHostMemorySmall(): void {
  setFlagsFromString("--liftoff-only");
}
