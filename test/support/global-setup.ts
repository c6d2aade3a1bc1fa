// Mocha's global setup: runs once, in the main process, before the parallel workers start, so
// that they all install the one tarball it packs.
import { packedTarball } from "./packed-program";

export function mochaGlobalSetup(): void {
  packedTarball();
}
