import { parseFaultSpec } from "./faults";
import type { EmulatorOptions } from "./emulator";

export const USAGE =
  "usage: pulumi-crm-emulator [--port N] [--token T] [--rate-limit RPS] [--faults SPEC] [--seed N] [--fixtures FILE] [--data FILE]";

type Flag = { option: keyof EmulatorOptions; kind: "integer" | "string" | "faults" };

const FLAGS: Record<string, Flag> = {
  "--port": { option: "port", kind: "integer" },
  "--token": { option: "token", kind: "string" },
  "--rate-limit": { option: "rateLimit", kind: "integer" },
  "--faults": { option: "faults", kind: "faults" },
  "--seed": { option: "seed", kind: "integer" },
  "--fixtures": { option: "fixtures", kind: "string" },
  "--data": { option: "data", kind: "string" },
};

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
    } else {
      if (flag.kind === "faults") parseFaultSpec(value);
      options[flag.option] = value;
    }
  }
  if (typeof options.port === "number" && options.port > 65535) throw new Error(`--port must be at most 65535`);
  return options as EmulatorOptions;
}
