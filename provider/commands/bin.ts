#!/usr/bin/env node
// `pulumi-crm`, the package's command: `export` (the default: an account's setup as a
// program), `compare` (two accounts' setups) and `fleet` (an agency's client stacks), each
// loaded only when it runs: export and compare never load the Automation API.

async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === "fleet") {
    const code = await (await import("./fleet/command")).fleetMain(argv.slice(1));
    // A drift check that --timeout stopped leaves its reads waiting on the service: the fleet ends once its report is out.
    await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write("", () => resolve()))));
    process.exit(code);
  }
  if (argv[0] === "compare") return (await import("./compare")).compareMain(argv.slice(1));
  return (await import("./export/command")).exportMain(argv);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    process.stderr.write(`pulumi-crm export: ${error.message}\n`);
    process.exitCode = 1;
  },
);
