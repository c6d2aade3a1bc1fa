// Mocha's global setup: runs once, in the main process, before the parallel workers start.
import { rmSync } from "node:fs";
import { join } from "node:path";

import { packedTarball, repoRoot } from "./packed-program";

export function mochaGlobalSetup(): void {
  // Each worker installs the programs' dependencies anew; drop earlier runs' installs.
  rmSync(join(repoRoot, ".work", "installs"), { recursive: true, force: true });
  packedTarball();
}
