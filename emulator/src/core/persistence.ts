import { readFileSync, renameSync, writeFileSync } from "node:fs";

/**
 * Keeps emulator state in a JSON file across restarts. Every change is saved before
 * its answer is sent, through a temporary file and a rename: an acknowledged write
 * survives the process being killed at any moment, and a reader never sees half a
 * file. A file that cannot be read as state is refused, never overwritten.
 */
export class StateFile {
  constructor(
    private readonly path: string,
    private readonly snapshot: () => unknown,
  ) {}

  /** The saved state, or undefined when the file does not exist yet. Read once at start-up. */
  load(): unknown {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      const state = JSON.parse(text) as unknown;
      if (typeof state !== "object" || state === null || Array.isArray(state)) throw new Error("it does not hold a JSON object");
      return state;
    } catch (error) {
      throw new Error(
        `the data file ${this.path} is not emulator state (${(error as Error).message}); it was left as it is: move it away or name another --data file`,
      );
    }
  }

  /** Synchronous, so that nothing is answered before its change is on disk. */
  save(): void {
    const temp = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(this.snapshot()));
      renameSync(temp, this.path);
    } catch (error) {
      // Keep serving; the next change saves again.
      process.stderr.write(`pulumi-crm-emulator: could not save state to ${this.path}: ${(error as Error).message}\n`);
    }
  }
}
