import { promises as fs, readFileSync } from "node:fs";

/**
 * Keeps emulator state in a JSON file across restarts. Writes are coalesced: a burst of
 * mutating requests produces one write shortly after, always temp file + rename so a crash
 * never leaves a half-written file. close() flushes whatever is still pending.
 */
export class StateFile {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly snapshot: () => unknown,
    private readonly delayMs = 20,
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
    return JSON.parse(text);
  }

  markDirty(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.delayMs);
  }

  async close(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.flush();
    }
    await this.writing;
  }

  /** Serialized behind the previous write so renames land in order. */
  private flush(): Promise<void> {
    const text = JSON.stringify(this.snapshot());
    const temp = `${this.path}.${process.pid}.tmp`;
    this.writing = this.writing.then(async () => {
      await fs.writeFile(temp, text);
      await fs.rename(temp, this.path);
    }).catch((error: Error) => {
      // Keep serving; the next mutation retries the write.
      process.stderr.write(`pulumi-crm-emulator: could not save state to ${this.path}: ${error.message}\n`);
    });
    return this.writing;
  }
}
