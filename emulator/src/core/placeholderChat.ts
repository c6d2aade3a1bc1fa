import type { MountedService } from "./mount";

/** Stands in for the chat service until emulator/src/chat lands: every chat path is unknown. */
export function createPlaceholderChatService(): MountedService {
  return {
    handle: () => ({ status: 404, body: { detail: "Not found." } }),
    snapshot: () => ({}),
    restore: () => undefined,
    reset: () => undefined,
  };
}
