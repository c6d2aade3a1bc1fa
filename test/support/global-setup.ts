// Mocha's global setup: runs once, in the main process, before the parallel workers start, so
// that they all know the run they belong to and share what it packs and installs (made on
// first need: see packed-program.ts), and so that they and every process they start (Pulumi
// programs, provider hosts, the engine and emulator commands) share one code cache.
import { join } from "node:path";
import { compileCacheDir, testRunVariable } from "./packed-program";

export function mochaGlobalSetup(): void {
  process.env[testRunVariable] ??= String(process.pid);
  process.env.PULUMI_CRM_COMPILE_CACHE = compileCacheDir();
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, `--require "${join(__dirname, "compile-cache.js")}"`].filter(Boolean).join(" ");
}
