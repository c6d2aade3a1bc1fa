#!/usr/bin/env node
// Writes the Markdown of one stack's drift check for the job summary ($GITHUB_STEP_SUMMARY).
//
//   node .github/drift-summary.js STACK EXIT_CODE LOG_FILE >> "$GITHUB_STEP_SUMMARY"
//
// EXIT_CODE is what `pulumi refresh --preview-only --expect-no-changes` exited with:
// 0 no drift, 7 drift (CLI 3.227 and later), anything else the check itself failed.
// LOG_FILE is its output (run with --diff): the resources that drifted are found in it,
// from the step lines ("~ <type> <name> ...") and the diff's [urn=...] lines, and the fields
// that drifted from the property lines of each resource's diff ("      ~ name: "a" => "b"").

const { readFileSync } = require("node:fs");

const [stack, codeText, logFile] = process.argv.slice(2);
if (!stack || codeText === undefined || !logFile) {
  process.stderr.write("usage: drift-summary.js STACK EXIT_CODE LOG_FILE\n");
  process.exit(2);
}
const code = Number(codeText);
// Colour codes removed, should the CLI have written any.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal colour codes the log holds
const log = readFileSync(logFile, "utf8").replace(/\u001b\[[0-9;]*m/g, "");

/** The drifted resources: [symbol, "type name", fields] in order of appearance, the stack itself left out. */
function driftedResources(text) {
  const found = new Map();
  const fieldsOf = new Map();
  const lines = text.split(/\r?\n/);
  const stepLine = /^\s*(\+-|-\+|\+\+|--|~|-|\+)\s+(?:[│├└─]+\s*)*([A-Za-z0-9_.-]+:[A-Za-z0-9_./-]*:[A-Za-z0-9_.$/-]+)\s+([^\s[(]+)/;
  const urnLine = /^\s*\[urn=urn:pulumi:[^:]*::[^:]*::(?:[^$]*\$)?([^:]+:[^:]*:[^:]+)::(.+)\]\s*$/;
  // "  ~ pulumi-nodejs:dynamic:Resource: (update)" heads a resource's diff; its name comes on the [urn=] line.
  const diffHeader = /^\s*(\+-|-\+|\+\+|--|~|-|\+)\s+\S+?:\s*\(/;
  // A property line of a diff: its sign two columns right of the header's (deeper ones are nested values).
  const propertyLine = /^(\s*)(~|\+|-)\s+([^\s:]+)\s*:/;
  let symbol;
  let headerColumn = -1;
  let resource;
  let fields = [];
  for (const line of lines) {
    const header = diffHeader.exec(line);
    if (header) {
      symbol = header[1];
      headerColumn = line.indexOf(symbol);
      resource = undefined;
      fields = [];
      continue;
    }
    const property = propertyLine.exec(line);
    if (property && headerColumn >= 0 && property[1].length === headerColumn + 2) {
      fields.push(property[3]);
      if (resource) fieldsOf.set(resource, fields);
      continue;
    }
    const step = stepLine.exec(line);
    if (step) {
      if (step[2] !== "pulumi:pulumi:Stack") found.set(`${step[2]} ${step[3]}`, step[1]);
      continue;
    }
    const urn = urnLine.exec(line);
    if (urn && urn[1] !== "pulumi:pulumi:Stack" && symbol) {
      resource = `${urn[1]} ${urn[2]}`;
      found.set(resource, symbol);
      fieldsOf.set(resource, fields);
    }
  }
  return [...found].map(([resource, sign]) => [sign, resource, fieldsOf.get(resource) ?? []]);
}

const what = { "~": "changed outside Pulumi", "-": "gone from the service", "+": "new", "+-": "replaced", "-+": "replaced" };
const out = [];
if (code === 0) {
  out.push(`### ✅ \`${stack}\`: no drift`, "", "The service matches the stack's state.");
} else if (code === 7) {
  const resources = driftedResources(log);
  out.push(`### ⚠️ \`${stack}\`: drift`, "", "The service no longer matches the stack's state:", "");
  if (resources.length) {
    out.push("| | Resource | |", "|---|---|---|");
    for (const [sign, resource, fields] of resources) {
      const changed = sign === "~" && fields.length ? `: ${fields.map((field) => `\`${field}\``).join(", ")}` : "";
      out.push(`| \`${sign}\` | \`${resource}\` | ${what[sign] ?? ""}${changed} |`);
    }
  } else {
    out.push("(no resource could be picked out of the output: see it below)");
  }
  out.push(
    "",
    `Put the program's values back with \`pulumi up --refresh --stack ${stack}\` (a plain \`pulumi up\` compares the program with the state, which still holds the program's values, and changes nothing), or take the service's into the state with \`pulumi refresh --stack ${stack}\` (and change the program to match).`,
  );
} else {
  out.push(`### ❌ \`${stack}\`: the drift check failed (exit code ${code})`, "", "This is not drift: the check could not run. See the output below.");
}
out.push(
  "",
  "<details><summary>pulumi refresh --preview-only output</summary>",
  "",
  "```",
  log.trimEnd().split("\n").slice(-300).join("\n"),
  "```",
  "</details>",
  "",
);
process.stdout.write(out.join("\n"));
