// Mocha's global setup: runs once, in the main process, before the parallel workers start, so
// that they all know the run they belong to and share what it packs and installs (made on
// first need: see packed-program.ts).
import { testRunVariable } from "../../scripts/harness/packed-program";

export function mochaGlobalSetup(): void {
  process.env[testRunVariable] ??= String(process.pid);
}
