// Mocha's global setup: runs once, in the main process, before the parallel workers start, so
// that they all know the run they belong to and share what it packs and installs (made on
// first need: see packed-program.ts), and so that they and every process they start (Pulumi
// programs, provider hosts, the engine and emulator commands) share one code cache and defer the
// SDK's modules they never use (deferred-modules.js).
import { join } from "node:path";
import { compileCacheDir, testRunVariable } from "./packed-program";

export function mochaGlobalSetup(): void {
  process.env[testRunVariable] ??= String(process.pid);
  process.env.PULUMI_CRM_COMPILE_CACHE = compileCacheDir();
  const preloads = ["compile-cache.js", "deferred-modules.js"].map((file) => `--require "${join(__dirname, file)}"`);
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, ...preloads].filter(Boolean).join(" ");
}
