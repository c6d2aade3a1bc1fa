import { parseFaultSpec } from "./faults";
import type { EmulatorOptions } from "./emulator";

type Flag = { option: keyof EmulatorOptions; kind: "integer" | "string" | "faults" | "names"; value: string; help: string };

const FLAGS: Record<string, Flag> = {
  "--port": { option: "port", kind: "integer", value: "N", help: "port on 127.0.0.1; 0 (default) picks a free one" },
  "--token": { option: "token", kind: "string", value: "T", help: "the API key both services accept (default: random)" },
  "--rate-limit": {
    option: "rateLimit",
    kind: "integer",
    value: "RPS",
    help: "requests per second per account at each service, then 429 with Retry-After (default 5; 0 turns it off)",
  },
  "--crm-rate-limit": { option: "crmRateLimit", kind: "integer", value: "RPS", help: "--rate-limit for the CRM service only, in its place" },
  "--chat-rate-limit": { option: "chatRateLimit", kind: "integer", value: "RPS", help: "--rate-limit for the chat service only, in its place" },
  "--faults": {
    option: "faults",
    kind: "faults",
    value: "SPEC",
    help: 'injected faults, e.g. "429=0.2,503=0.1,reset=0.05,lost=0.05,500=0.05,latency=50-200" (500, 502, 504: answered after the work)',
  },
  "--seed": { option: "seed", kind: "integer", value: "N", help: "seed of --faults: the same seed, the same faults (default 0)" },
  "--fixtures": {
    option: "fixtures",
    kind: "string",
    value: "FILE",
    help: "JSON {flows, automations, campaigns}: chat flows besides the built-in ones; CRM read-only data",
  },
  "--accounts": {
    option: "accounts",
    kind: "names",
    value: "NAME,...",
    help: "named accounts besides the default one, each at <url>/acct/<name> with its own data, random key and rate limits",
  },
  "--data": { option: "data", kind: "string", value: "FILE", help: "JSON file keeping the state across restarts" },
  "--execution-duration": {
    option: "executionDurationMs",
    kind: "integer",
    value: "MS",
    help: "how long a chat flow execution runs, its contacts done evenly over it (default 3000)",
  },
};

const HELP_FLAGS = ["-h", "--help"];

export const USAGE = `usage: pulumi-crm-emulator ${Object.entries(FLAGS)
  .map(([name, flag]) => `[${name} ${flag.value}]`)
  .join(" ")} [--help]`;

const OPTION_LINES = [
  ...Object.entries(FLAGS).map(([name, flag]) => [`${name} ${flag.value}`, flag.help]),
  [HELP_FLAGS.join(", "), "print this help and exit"],
].map(([synopsis, help]) => `  ${synopsis.padEnd(24)} ${help}`);

/** The --help text: what the bin does, every flag, an example. */
export const HELP = [
  USAGE,
  "",
  "Serves the CRM service (API v3) and the chat flow service on 127.0.0.1, for tests and demos.",
  "Prints one JSON line {crmUrl, chatUrl, apiToken, accounts} on stdout (accounts: each named account's",
  "{crmUrl, chatUrl, apiToken}), then serves until SIGINT or SIGTERM. POST /__emulator/accounts {name}",
  "opens another named account while it runs.",
  "",
  "options (--port 4000 or --port=4000):",
  ...OPTION_LINES,
  "",
  "example:",
  "  pulumi-crm-emulator --port 4000 --rate-limit 0 --fixtures fixtures.json --data state.json",
  "  pulumi-crm-emulator --port 4000 --accounts acme,globex   # http://127.0.0.1:4000/acct/acme, .../acct/globex",
  "",
].join("\n");

/** Whether the command line asks for help; it wins over any other argument, even a bad one. */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.some((argument) => HELP_FLAGS.includes(argument));
}

/** Parses bin flags ("--port 0" or "--port=0"); throws an Error whose message explains the problem. */
export function parseArguments(argv: readonly string[]): EmulatorOptions {
  const options: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const [name, inlineValue] = argv[i].split(/=(.*)/s, 2);
    const flag = FLAGS[name];
    if (!flag) throw new Error(`unknown argument "${argv[i]}"`);
    const value = inlineValue ?? argv[++i];
    if (value === undefined) throw new Error(`${name} needs a value`);
    if (flag.kind === "integer") {
      if (!/^\d+$/.test(value)) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
      options[flag.option] = Number(value);
    } else if (flag.kind === "names") {
      options[flag.option] = value.split(",").map((name) => ({ name: name.trim() }));
    } else {
      if (flag.kind === "faults") parseFaultSpec(value);
      options[flag.option] = value;
    }
  }
  if (typeof options.port === "number" && options.port > 65535) throw new Error(`--port must be at most 65535`);
  if (options.executionDurationMs === 0) throw new Error("--execution-duration must be at least 1");
  return options as EmulatorOptions;
}
