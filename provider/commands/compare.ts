// `pulumi-crm compare`: is one account's setup still like another's? Reads both accounts as
// `pulumi-crm export` reads them (readAccount, each under its own settings), matches their
// objects by what identifies them in an account, never by id (ids differ between accounts),
// and prints the objects only one holds and the fields that differ. See
// sdk-docs/one-setup-every-account.md.

import { CrmClient } from "../crm/service/client";
import { withProviderSettings } from "../settings";
import { ServiceError } from "../transport/errors";
import { type ExportedObject, type ExportKind, exportedResources, exportKinds, kindsNamed, readAccount, setupKinds } from "./export/read-account";

const USAGE = "usage: pulumi-crm compare --from URL --to URL [--from-token KEY] [--to-token KEY] [--kinds KIND,...] [--json] [--help]";

const HELP = [
  USAGE,
  "",
  "Reads two CRM accounts and tells whether their setups are alike: the objects only one of them",
  "holds, and the fields that differ. Objects are matched by their names, never by their ids.",
  "",
  "options (--from URL or --from=URL):",
  "  --from URL         the first account's API address",
  "  --to URL           the second account's API address",
  "  --from-token KEY   the first account's API key (default: CRM_FROM_API_TOKEN, which keeps it out of the process list)",
  "  --to-token KEY     the second account's API key (default: CRM_TO_API_TOKEN)",
  "  --kinds KIND,...   what to compare (default: setup): setup (the account's setup), data (its companies,",
  "                     their notes, values and contacts' places), all, or kinds:",
  `                     ${exportKinds.join(", ")}`,
  "  --json             print the comparison as JSON",
  "  -h, --help         print this help and exit",
  "",
  "Exit code: 0 alike, 7 they differ, 1 an account could not be read, 2 bad usage.",
  "CRM_REQUESTS_PER_SECOND sets the rate limit of each account (default 5, the service's). Progress goes to stderr.",
  "",
].join("\n");

/** The two accounts, as the command's options and environment name them. */
const sides = {
  from: { flag: "--from", tokenFlag: "--from-token", tokenEnv: "CRM_FROM_API_TOKEN" },
  to: { flag: "--to", tokenFlag: "--to-token", tokenEnv: "CRM_TO_API_TOKEN" },
} as const;
type Side = keyof typeof sides;

interface Arguments {
  urls: Partial<Record<Side, string>>;
  tokens: Partial<Record<Side, string>>;
  kinds: readonly ExportKind[];
  json: boolean;
}

const valueFlags: Record<string, (parsed: Arguments, value: string) => void> = {
  "--from": (parsed, value) => (parsed.urls.from = value),
  "--to": (parsed, value) => (parsed.urls.to = value),
  "--from-token": (parsed, value) => (parsed.tokens.from = value),
  "--to-token": (parsed, value) => (parsed.tokens.to = value),
  "--kinds": (parsed, value) => (parsed.kinds = [...kindsNamed(value)]),
};

/** Parses the flags ("--from URL" or "--from=URL"); throws an Error whose message names the problem, never a value (it may be a key). */
function parseArguments(argv: readonly string[]): Arguments {
  const parsed: Arguments = { urls: {}, tokens: {}, kinds: setupKinds, json: false };
  for (let i = 0; i < argv.length; i++) {
    const [name, inlineValue] = argv[i].split(/=(.*)/s, 2);
    if (name === "--json" && inlineValue === undefined) {
      parsed.json = true;
      continue;
    }
    const set = valueFlags[name];
    if (!set) throw new Error(name.startsWith("-") ? `unknown option ${name}` : `argument ${i + 1} is not an option; give each value after its option`);
    const value = inlineValue ?? argv[++i];
    if (value === undefined || value === "") throw new Error(`${name} needs a value`);
    set(parsed, value);
  }
  return parsed;
}

/** One account to read: where, with which key, and how the command names it. */
interface Account {
  side: Side;
  url: string;
  token: string;
}

const settingsOf = (account: Account) => {
  const values: Record<string, string> = { "crm:apiUrl": account.url, "crm:apiToken": account.token };
  return { get: (key: string) => values[key] };
};

/** Both accounts, each with its address and key given; throws an Error naming what is missing or malformed, before any request. */
function accountsOf(args: Arguments): Record<Side, Account> {
  const accountOf = (side: Side) => ({ side, url: args.urls[side] ?? "", token: args.tokens[side] ?? process.env[sides[side].tokenEnv] ?? "" });
  const accounts = { from: accountOf("from"), to: accountOf("to") };
  const missing = Object.values(accounts).flatMap(({ side, url, token }) => [
    ...(url ? [] : [sides[side].flag]),
    ...(token ? [] : [`${sides[side].tokenFlag} (or ${sides[side].tokenEnv})`]),
  ]);
  if (missing.length) throw new Error(`give ${missing.join(" and ")}`);
  // A client resolves its address and key when made: a malformed address is refused here, with no request sent.
  for (const account of Object.values(accounts)) withProviderSettings(settingsOf(account), () => new CrmClient(sides[account.side].flag));
  return accounts;
}

/** Why an account could not be read, and what to do; never its key. */
function readFailure(account: Account, error: unknown): string {
  const { flag, tokenFlag, tokenEnv } = sides[account.side];
  if (error instanceof ServiceError && (error.status === 401 || error.status === 403)) {
    return `the ${flag} account (${account.url}) refused its key (the service answered ${error.status}): check that ${tokenFlag} (or ${tokenEnv}) holds an API key of this account whose user may read its setup`;
  }
  return `the ${flag} account (${account.url}) could not be read: ${(error as Error).message}`;
}

/** The kinds read to compare `kinds`: those, and the kinds they refer to, so that a reference is matched by its object's identity. */
function kindsToRead(kinds: readonly ExportKind[]): Set<ExportKind> {
  const referred = exportedResources
    .filter((resource) => kinds.includes(resource.name))
    .flatMap((resource) => Object.values(resource.definition.exported.refersTo ?? {}));
  return new Set([...kinds, ...(referred as ExportKind[])]);
}

/** An object as compared: what identifies it in its account (`key`), how the table names it, and its inputs with references resolved both ways. */
interface Identified {
  kind: ExportKind;
  key: string;
  label: string;
  /** The inputs, each reference as the key of the object it names (an id naming none: the id). */
  compared: Record<string, unknown>;
  /** The inputs, each reference as the label of the object it names (an id naming none: the id). */
  shown: Record<string, unknown>;
}

const uniqueNameOf = (kind: ExportKind) => exportedResources.find((resource) => resource.name === kind)?.definition.core.uniqueName;

/**
 * Each object of the account, identified: by its name, regardless of case, where the service's names
 * are unique (within a tag's type), else by the export's title, a repeated title told apart by
 * order (`#2`). References are resolved against every object read, of the kinds compared or not.
 */
function identify(objects: readonly ExportedObject[]): Identified[] {
  const titlesSeen = new Map<string, number>();
  const named = objects.map((object) => {
    const unique = uniqueNameOf(object.kind);
    const name = unique && object.inputs[unique.field];
    if (unique && typeof name === "string") {
      const scope = unique.within === undefined ? undefined : String(object.inputs[unique.within]);
      return {
        object,
        key: scope === undefined ? name.toLowerCase() : `${scope}/${name.toLowerCase()}`,
        label: scope === undefined ? object.title : `${object.title} (${scope})`,
      };
    }
    const seen = (titlesSeen.get(`${object.kind}\n${object.title}`) ?? 0) + 1;
    titlesSeen.set(`${object.kind}\n${object.title}`, seen);
    const label = seen === 1 ? object.title : `${object.title} #${seen}`;
    return { object, key: label, label };
  });
  const byId = new Map(named.map((entry) => [`${entry.object.kind}\n${entry.object.id}`, entry]));
  const resolved = (object: ExportedObject, as: (entry: (typeof named)[number], kind: ExportKind) => string) =>
    Object.fromEntries(
      Object.entries(object.inputs).map(([input, value]) => {
        const kind = object.refersTo[input];
        if (!kind || value === null || value === undefined) return [input, value];
        const one = (id: unknown) => {
          const entry = byId.get(`${kind}\n${String(id)}`);
          return entry ? as(entry, kind) : id;
        };
        // A list of references is a set: its ids' order (by id) is no order of the objects named.
        return [input, Array.isArray(value) ? value.map(one).sort() : one(value)];
      }),
    );
  return named.map(({ object, key, label }) => ({
    kind: object.kind,
    key,
    label,
    compared: resolved(object, (entry, kind) => `${kind}:${entry.key}`),
    shown: resolved(object, (entry) => entry.label),
  }));
}

interface Difference {
  kind: ExportKind;
  object: string;
  field: string;
  /** The value in each account; absent where the field is unset. */
  from?: unknown;
  to?: unknown;
}

interface Comparison {
  from: string;
  to: string;
  kinds: readonly ExportKind[];
  alike: boolean;
  /** How many objects both accounts hold. */
  matched: number;
  onlyInFrom: { kind: ExportKind; object: string }[];
  onlyInTo: { kind: ExportKind; object: string }[];
  differences: Difference[];
}

function fieldsThatDiffer(from: Identified, to: Identified, except?: string): Difference[] {
  const fields = [...new Set([...Object.keys(from.compared), ...Object.keys(to.compared)])].filter((field) => field !== except);
  return fields
    .filter((field) => JSON.stringify(from.compared[field]) !== JSON.stringify(to.compared[field]))
    .map((field) => ({ kind: from.kind, object: from.label, field, from: from.shown[field], to: to.shown[field] }));
}

/**
 * Pairs an object only in `from` with one only in `to`, of a kind whose names are unique, that are
 * alike in everything but their name, each the other's only such one: the same object renamed,
 * told as its name field differing rather than as two objects.
 */
function renamed(onlyInFrom: Identified[], onlyInTo: Identified[]): [Identified, Identified][] {
  const alikeButNamed = (from: Identified, to: Identified) => {
    const unique = from.kind === to.kind ? uniqueNameOf(from.kind) : undefined;
    return unique !== undefined && fieldsThatDiffer(from, to, unique.field).length === 0;
  };
  return onlyInFrom.flatMap((from): [Identified, Identified][] => {
    const candidates = onlyInTo.filter((to) => alikeButNamed(from, to));
    return candidates.length === 1 && onlyInFrom.filter((other) => alikeButNamed(other, candidates[0])).length === 1 ? [[from, candidates[0]]] : [];
  });
}

/** The comparison of two accounts' objects of `kinds`: the objects only one holds, then the fields that differ, each in the order the accounts list them. */
function compareObjects(from: readonly ExportedObject[], to: readonly ExportedObject[], kinds: readonly ExportKind[], urls: Record<Side, string>): Comparison {
  const compared = (objects: readonly ExportedObject[]) => identify(objects).filter((object) => kinds.includes(object.kind));
  const [fromObjects, toObjects] = [compared(from), compared(to)];
  const toByKey = new Map(toObjects.map((object) => [`${object.kind}\n${object.key}`, object]));
  const pairs: [Identified, Identified][] = [];
  const onlyInFrom: Identified[] = [];
  for (const object of fromObjects) {
    const other = toByKey.get(`${object.kind}\n${object.key}`);
    if (other) pairs.push([object, other]);
    else onlyInFrom.push(object);
  }
  const paired = new Set(pairs.map(([, other]) => other));
  const onlyInTo = toObjects.filter((object) => !paired.has(object));
  const renames = renamed(onlyInFrom, onlyInTo);
  const renamedObjects = new Set(renames.flat());
  const listed = (objects: Identified[]) => objects.filter((object) => !renamedObjects.has(object)).map(({ kind, label }) => ({ kind, object: label }));
  const differences = [...pairs, ...renames].flatMap(([one, other]) => fieldsThatDiffer(one, other));
  const comparison = {
    from: urls.from,
    to: urls.to,
    kinds,
    matched: pairs.length + renames.length,
    onlyInFrom: listed(onlyInFrom),
    onlyInTo: listed(onlyInTo),
    differences,
  };
  return { ...comparison, alike: !comparison.onlyInFrom.length && !comparison.onlyInTo.length && !differences.length };
}

/** The longest value a table cell shows in full. */
const cellWidth = 60;
const cellOf = (value: unknown) => {
  const text = value === undefined ? "(unset)" : JSON.stringify(value);
  return text.length > cellWidth ? `${text.slice(0, cellWidth - 1)}…` : text;
};

/** The table: a line per object only one account holds and per field that differs, then what the exit code says. */
function formatTable(comparison: Comparison): string {
  const rows = [
    ...comparison.onlyInFrom.map(({ kind, object }) => [kind, object, "only in from", "", ""]),
    ...comparison.onlyInTo.map(({ kind, object }) => [kind, object, "only in to", "", ""]),
    ...comparison.differences.map(({ kind, object, field, from, to }) => [kind, object, field, cellOf(from), cellOf(to)]),
  ];
  const header = ["Kind", "Object", "Field", "From", "To"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join("  ")
      .trimEnd();
  const counts = `${comparison.matched} objects in both, ${comparison.onlyInFrom.length} only in from, ${comparison.onlyInTo.length} only in to, ${comparison.differences.length} field${comparison.differences.length === 1 ? " differs" : "s differ"}`;
  const verdict = comparison.alike ? `alike (${counts}); exit code 0` : `they differ (${counts}); exit code 7`;
  return [...(rows.length ? [line(header), ...rows.map(line), ""] : []), `from ${comparison.from}, to ${comparison.to}: ${verdict}`, ""].join("\n");
}

/** `pulumi-crm compare ...`: the exit code. */
export async function compareMain(argv: readonly string[]): Promise<number> {
  if (argv.some((argument) => argument === "--help" || argument === "-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  let args: Arguments;
  let accounts: Record<Side, Account>;
  try {
    args = parseArguments(argv);
    accounts = accountsOf(args);
  } catch (error) {
    process.stderr.write(`pulumi-crm compare: ${(error as Error).message}\n${USAGE}\n(--help explains each option)\n`);
    return 2;
  }
  const kinds = kindsToRead(args.kinds);
  const read = (account: Account) =>
    withProviderSettings(settingsOf(account), () =>
      readAccount({ kinds, progress: (line) => process.stderr.write(`pulumi-crm compare: ${sides[account.side].flag} ${line}\n`) }),
    );
  // Each account at its own rate limit: read side by side.
  const [from, to] = await Promise.allSettled([read(accounts.from), read(accounts.to)]);
  if (from.status === "rejected" || to.status === "rejected") {
    const failures = [from.status === "rejected" && readFailure(accounts.from, from.reason), to.status === "rejected" && readFailure(accounts.to, to.reason)];
    for (const failure of failures.filter(Boolean)) process.stderr.write(`pulumi-crm compare: ${failure}\n`);
    return 1;
  }
  const comparison = compareObjects(from.value, to.value, args.kinds, { from: accounts.from.url, to: accounts.to.url });
  process.stdout.write(args.json ? `${JSON.stringify(comparison, null, 2)}\n` : formatTable(comparison));
  return comparison.alike ? 0 : 7;
}
