#!/usr/bin/env node
import { HELP, parseArguments, USAGE, wantsHelp } from "./src/core/cli";
import { startEmulator } from "./src/core/emulator";

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (wantsHelp(argv)) {
    // Returning, not process.exit(0), lets the text drain to a slow pipe first.
    process.stdout.write(HELP);
    return;
  }
  let options: ReturnType<typeof parseArguments>;
  try {
    options = parseArguments(argv);
  } catch (error) {
    process.stderr.write(`pulumi-crm-emulator: ${(error as Error).message}\n${USAGE}\n(--help explains each option)\n`);
    process.exit(2);
  }
  const emulator = await startEmulator(options);
  // The first stdout line is the contract with whoever spawned us: one JSON object.
  process.stdout.write(`${JSON.stringify({ crmUrl: emulator.crmUrl, chatUrl: emulator.chatUrl, apiToken: emulator.apiToken, accounts: emulator.accounts })}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    emulator.close().then(
      () => process.exit(0),
      (error: Error) => {
        process.stderr.write(`pulumi-crm-emulator: ${error.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: Error) => {
  process.stderr.write(`pulumi-crm-emulator: ${error.message}\n`);
  process.exit(1);
});
