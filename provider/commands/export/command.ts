// `pulumi-crm export`: reads a CRM account through the provider's own transport (its
// settings, rate limit and retries) and writes a Pulumi program that takes every object
// over. See sdk-docs/taking-over-an-account.md.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { useStackConfig } from "../../settings";
import { importFile, type Language, languages, programFiles } from "./program";
import { type ExportKind, exportKinds, kindsNamed, readAccount, setupKinds } from "./read-account";

const USAGE =
  "usage: pulumi-crm export [--api-url URL] [--api-token KEY] [--kinds KIND,...] [--name-filter TEXT] [--language typescript|yaml] [--stack NAME] [--out DIR] [--package-spec SPEC] [--import-file FILE] [--help] [--version]\n       pulumi-crm fleet ... (see pulumi-crm fleet --help)" +
  "\n       pulumi-crm compare --from URL --to URL ... (see pulumi-crm compare --help)";

const HELP = [
  USAGE,
  "",
  "Reads a CRM account and writes a Pulumi program that declares its setup as it holds it, for any",
  "account: TypeScript (Pulumi.yaml, package.json, tsconfig.json, index.ts) or YAML (Pulumi.yaml), with",
  "no id of the account in it; and the settings of the stack of the account read (Pulumi.<stack>.yaml:",
  "crm:apiUrl, the ids it takes over, protect), whose first `pulumi up` writes nothing. Another stack,",
  "given its own crm:apiUrl and crm:apiToken, makes the same setup in its account with one `pulumi up`.",
  "",
  "options (--out crm or --out=crm):",
  "  --api-url URL        the account's API address (default: CRM_API_URL)",
  "  --api-token KEY      the API key (default: CRM_API_TOKEN, which keeps it out of the process list)",
  "  --kinds KIND,...     what to export (default: setup): setup (the account's setup), data (its companies,",
  "                       their notes, values and contacts' places), all, or kinds:",
  `                       ${exportKinds.join(", ")}`,
  "  --language LANG      typescript (default; the dynamic classes) or yaml (the native plugin)",
  "  --stack NAME         the stack of the account read, whose settings are written (default: source)",
  "  --name-filter TEXT   only objects whose name holds TEXT, regardless of case; values, notes and",
  "                       contacts' places follow their account",
  "  --out DIR            the folder to write, which must hold no program yet (default: crm-account)",
  "  --package-spec SPEC  how the program's package.json names pulumi-crm (default: as the project",
  "                       that installed this pulumi-crm names it, e.g. a tarball or git URL)",
  "  --import-file FILE   also write a `pulumi import --file` document of the objects (JSON: each",
  "                       one's type token, name and id), for a program on the native plugin in",
  "                       any language (see sdk-docs/native-plugins.md)",
  "  -h, --help           print this help and exit",
  "  -v, --version        print the version of pulumi-crm and exit",
  "",
  "CRM_REQUESTS_PER_SECOND sets the rate limit (default 5, the service's). Progress goes to stderr.",
  "",
  "example:",
  "  CRM_API_TOKEN=... npx pulumi-crm export --api-url https://acme.api-us1.com --out acme-crm",
  "",
].join("\n");

interface Arguments {
  apiUrl?: string;
  apiToken?: string;
  kinds: Set<ExportKind>;
  language: Language;
  stack: string;
  nameFilter?: string;
  out: string;
  packageSpec?: string;
  importFile?: string;
}

const flags: Record<string, keyof Arguments> = {
  "--api-url": "apiUrl",
  "--api-token": "apiToken",
  "--kinds": "kinds",
  "--language": "language",
  "--stack": "stack",
  "--name-filter": "nameFilter",
  "--out": "out",
  "--package-spec": "packageSpec",
  "--import-file": "importFile",
};

/** Parses the flags ("--out dir" or "--out=dir"); throws an Error whose message explains the problem. */
function parseArguments(argv: readonly string[]): Arguments {
  const parsed: Arguments = { kinds: new Set(setupKinds), language: "typescript", stack: "source", out: "crm-account" };
  for (let i = 0; i < argv.length; i++) {
    const [name, inlineValue] = argv[i].split(/=(.*)/s, 2);
    const option = flags[name];
    if (!option) throw new Error(`unknown argument "${argv[i]}"`);
    const value = inlineValue ?? argv[++i];
    if (value === undefined || value === "") throw new Error(`${name} needs a value`);
    if (option === "kinds") parsed.kinds = kindsNamed(value);
    else if (option === "language") parsed.language = languageOf(value);
    else if (option === "stack" && !/^[\w.-]+$/.test(value)) throw new Error(`--stack: "${value}" is not a stack name (letters, digits, _, . and -)`);
    else (parsed as unknown as Record<string, string>)[option] = value;
  }
  return parsed;
}

function languageOf(value: string): Language {
  if (!(languages as readonly string[]).includes(value))
    throw new Error(`--language: "${value}" is not a language of a program; give ${languages.join(" or ")}`);
  return value as Language;
}

/** Where the CLI downloads the plugin, as the package schema this copy ships says (dist/schema, or the clone's schema/). */
const pluginDownloadUrl = (): string => JSON.parse(readFileSync(join(__dirname, "..", "..", "..", "schema", "crm.json"), "utf8")).pluginDownloadURL;

/** This package's package.json, found upwards from here (dist/provider/commands/export or provider/commands/export). */
function ownPackage(): { version: string; devDependencies: Record<string, string> } {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file) && JSON.parse(readFileSync(file, "utf8")).name === "pulumi-crm") return JSON.parse(readFileSync(file, "utf8"));
  }
  throw new Error("the pulumi-crm package.json was not found");
}

/**
 * How the written program's package.json names pulumi-crm: given, else as the project that
 * installed this copy names it (a tarball's `file:` path rebased onto `out`, a git URL, a
 * range), else this version's range, which installs only from a registry that has it.
 */
function pulumiCrmSpec(given: string | undefined, version: string, out: string): { spec: string; installable: boolean } {
  if (given) return { spec: given, installable: true };
  const installedAt = __dirname.lastIndexOf(`${sep}node_modules${sep}pulumi-crm${sep}`);
  const project = installedAt === -1 ? undefined : __dirname.slice(0, installedAt);
  const manifest = project && join(project, "package.json");
  if (manifest && existsSync(manifest)) {
    const { dependencies = {}, devDependencies = {} } = JSON.parse(readFileSync(manifest, "utf8"));
    const spec: unknown = dependencies["pulumi-crm"] ?? devDependencies["pulumi-crm"];
    if (typeof spec === "string" && spec.startsWith("file:")) {
      const path = spec.slice("file:".length);
      const rebased = relative(out, isAbsolute(path) ? path : resolve(project, path));
      return { spec: `file:${rebased.split(sep).join("/")}`, installable: true };
    }
    if (typeof spec === "string") return { spec, installable: true };
  }
  return { spec: `^${version}`, installable: false };
}

/**
 * The range of @pulumi/pulumi the program asks for: from the version this pulumi-crm runs
 * with (that of the project it is installed in, or of its clone), as `npm install` would
 * save it, so that the program gets that version or a later one.
 */
function pulumiSdkRange(): string {
  return `^${(require("@pulumi/pulumi/package.json") as { version: string }).version}`;
}

/** `pulumi-crm export ...` (and `pulumi-crm` alone, `--help`, `--version`): the exit code. */
export async function exportMain(argv: readonly string[]): Promise<number> {
  if (argv.some((argument) => argument === "--help" || argument === "-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  if (argv.some((argument) => argument === "--version" || argument === "-v")) {
    process.stdout.write(`${ownPackage().version}\n`);
    return 0;
  }
  const [command, ...rest] = argv;
  let args: Arguments;
  try {
    if (command !== "export") throw new Error(command === undefined ? "no command given" : `unknown command "${command}"`);
    args = parseArguments(rest);
  } catch (error) {
    process.stderr.write(`pulumi-crm: ${(error as Error).message}\n${USAGE}\n(--help explains each option)\n`);
    return 2;
  }
  const apiUrl = args.apiUrl ?? process.env.CRM_API_URL;
  const missing = [
    apiUrl ? undefined : "--api-url (or CRM_API_URL)",
    (args.apiToken ?? process.env.CRM_API_TOKEN) ? undefined : "--api-token (or CRM_API_TOKEN)",
  ];
  if (missing.some(Boolean)) {
    process.stderr.write(`pulumi-crm export: give ${missing.filter(Boolean).join(" and ")}\n`);
    return 2;
  }
  const out = resolve(args.out);
  const files = ["Pulumi.yaml", "Pulumi.yml", "package.json", "tsconfig.json", "index.ts", `Pulumi.${args.stack}.yaml`];
  const present = files.filter((file) => existsSync(join(out, file)));
  if (present.length) {
    process.stderr.write(
      `pulumi-crm export: ${out} holds ${present.join(", ")} already; give an --out folder without a program, so that nothing is overwritten\n`,
    );
    return 2;
  }

  // Flags first; the settings fall back to the environment (CRM_REQUESTS_PER_SECOND included).
  const given: Record<string, string | undefined> = { "crm:apiUrl": args.apiUrl, "crm:apiToken": args.apiToken };
  useStackConfig({ get: (key) => given[key] });
  const objects = await readAccount({
    kinds: args.kinds,
    nameFilter: args.nameFilter,
    progress: (line) => process.stderr.write(`pulumi-crm export: ${line}\n`),
  });

  const own = ownPackage();
  const pulumiCrm = pulumiCrmSpec(args.packageSpec, own.version, out);
  const project =
    basename(out)
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, "-")
      .replace(/^[^a-z0-9]+/, "") || "crm-account";
  const program = programFiles(objects, {
    project,
    apiUrl: apiUrl!,
    language: args.language,
    stack: args.stack,
    kinds: [...args.kinds],
    plugin: { version: own.version, downloadUrl: pluginDownloadUrl() },
    dependencies: {
      pulumiCrm: pulumiCrm.spec,
      pulumi: pulumiSdkRange(),
      typescript: own.devDependencies.typescript,
      tsNode: own.devDependencies["ts-node"],
    },
  });
  mkdirSync(out, { recursive: true });
  // wx: a file made meanwhile is never overwritten.
  for (const [file, text] of Object.entries(program)) writeFileSync(join(out, file), text, { flag: "wx" });
  if (args.importFile) writeFileSync(resolve(args.importFile), importFile(objects));
  const review = args.language === "typescript" ? "review index.ts and run `npm install`" : "review Pulumi.yaml";
  process.stdout.write(
    `Wrote ${objects.length} resources to ${out}${args.importFile ? ` and a \`pulumi import --file\` document of them to ${resolve(args.importFile)}` : ""}, and the settings of stack ${args.stack}, ` +
      `which takes this account's objects over. Before the first \`pulumi up\` there, ${review} (see sdk-docs/one-setup-every-account.md), ` +
      `then \`pulumi stack init ${args.stack}\` and \`pulumi config set --secret crm:apiToken <key>\`. For another account: \`pulumi stack init <name>\`, ` +
      "`pulumi config set crm:apiUrl <address>` and `pulumi config set --secret crm:apiToken <key>`.\n",
  );
  if (args.language === "typescript" && !pulumiCrm.installable) {
    process.stderr.write(
      `pulumi-crm export: package.json names pulumi-crm as "${pulumiCrm.spec}", which installs only from a registry that has this version; ` +
        "give --package-spec (a tarball made by `npm pack`, e.g. file:../pulumi-crm-0.1.0.tgz, or a git URL) or edit it before `npm install`\n",
    );
  }
  return 0;
}
