// `pulumi-crm fleet ci`: GitHub Actions workflows whose matrix is the clients file, so that a
// fleet too large for one machine spreads over CI runners: a scheduled drift check and a
// pull-request preview, each job running `pulumi-crm fleet` on its share of the stacks.

import { existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { ClientsFile } from "./clients";
import { programSettings } from "./program";

/**
 * The actions the jobs use, pinned by commit (a tag can be moved to other code), the release each
 * commit is named in its comment.
 */
export const PINNED_ACTIONS = {
  checkout: "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2",
  setupNode: "actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020 # v4.4.0",
  cache: "actions/cache@5a3ec84eff668545956fd18022155c47e93e2684 # v4.2.3",
};

/** The pulumi CLI the jobs install: the release the package's tests run on (tools/pulumi-cli/go.mod; a test holds the two alike). */
export const TESTED_PULUMI_CLI = "3.274.1";

/** Whether the program in `folder` names where its plugin is released, as the fleet reads it. */
function namesPluginRelease(folder: string): boolean {
  try {
    return programSettings(folder).namesPluginRelease;
  } catch {
    return false;
  }
}

/** GitHub's limit of jobs one matrix makes. */
export const MAX_MATRIX_JOBS = 256;

export interface WorkflowOptions {
  /** The repository's root, which paths in the workflows are relative to (where the command runs). */
  root: string;
  /** Stacks per job: 1 (a job per client) unless the fleet has more clients than a matrix has jobs. */
  perJob: number;
  /** Jobs at once. */
  maxParallel: number;
  /** When the drift check runs (cron, UTC). */
  cron: string;
}

/** The jobs' shares of the stacks: `perJob` stacks each, comma-separated as `--only` takes them. */
export function matrixOf(file: ClientsFile, perJob: number): string[] {
  const stacks = file.clients.map((client) => client.stack);
  const shares: string[] = [];
  for (let index = 0; index < stacks.length; index += perJob) shares.push(stacks.slice(index, index + perJob).join(","));
  if (shares.length > MAX_MATRIX_JOBS) {
    throw new Error(
      `${stacks.length} clients at ${perJob} a job make ${shares.length} jobs, more than the ${MAX_MATRIX_JOBS} a GitHub matrix allows: give --per-job ${Math.ceil(stacks.length / MAX_MATRIX_JOBS)} or more`,
    );
  }
  return shares;
}

/**
 * What a job needs to read the stacks' secrets: the passphrase, or the credentials of the key
 * service the clients file's secretsProvider names, each from the repository's secrets.
 */
function secretsCredentials(provider = "passphrase"): { passphrase: boolean; lines: string[] } {
  const fromSecrets = (...names: string[]) => names.map((name) => `      ${name}: \${{ secrets.${name} }}`);
  const scheme = provider.split("://")[0];
  const keeper = (comment: string, ...names: string[]) => ({
    passphrase: false,
    lines: [`      # The stacks' secrets are kept by ${scheme} (the clients file's secretsProvider): ${comment}`, ...fromSecrets(...names)],
  });
  switch (scheme) {
    case "awskms":
      return keeper(
        "an AWS key allowed kms:Encrypt and kms:Decrypt on its key (or aws-actions/configure-aws-credentials).",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
      );
    case "azurekeyvault":
      return keeper("a service principal allowed to wrap and unwrap with its key.", "AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_TENANT_ID");
    case "hashivault":
      return keeper("a Vault token allowed its transit key.", "VAULT_SERVER_URL", "VAULT_SERVER_TOKEN");
    case "gcpkms":
      return keeper("add google-github-actions/auth to the steps.");
    default:
      return { passphrase: true, lines: fromSecrets("PULUMI_CONFIG_PASSPHRASE") };
  }
}

/** The two workflows, by file name: `fleet-drift.yml` and `fleet-preview.yml`. */
export function fleetWorkflows(file: ClientsFile, options: WorkflowOptions): Record<string, string> {
  const path = (absolute: string) => relative(options.root, absolute).split(sep).join("/") || ".";
  const clients = path(file.path);
  const program = path(file.program);
  const yamlProgram = !existsSync(join(file.program, "package.json"));
  // Where a YAML program's plugin comes from: the release the program names, which the CLI
  // downloads once into its plugin cache (kept below); else the npm package's bin, which `npx` puts on PATH.
  const pluginSource = !yamlProgram
    ? []
    : namesPluginRelease(file.program)
      ? [
          "      # The YAML program's plugin, pulumi-resource-crm: the release's single executable, which the CLI",
          "      # downloads where the program's pluginDownloadURL says, into its plugin cache (kept below).",
        ]
      : [
          "      # The YAML program names no pluginDownloadURL: its plugin is the npm package's bin, which `npx` puts on",
          "      # PATH, at twice the memory of the release's single executable (name the release: sdk-docs/yaml.md).",
        ];
  const matrix = matrixOf(file, options.perJob);
  const variables = [
    ...new Set(file.clients.flatMap((client) => [client.apiToken, ...Object.values(client.config)].flatMap((source) => ("env" in source ? [source.env] : [])))),
  ].sort();
  const secretsKeeper = secretsCredentials(file.secretsProvider);
  const job = (title: string, command: "drift" | "preview") => [
    `    name: ${title} (\${{ matrix.stacks }})`,
    "    runs-on: ubuntu-latest",
    "    timeout-minutes: 30",
    "    strategy:",
    "      fail-fast: false",
    `      max-parallel: ${options.maxParallel}`,
    "      matrix:",
    "        stacks:",
    ...matrix.map((share) => `          - ${JSON.stringify(share)}`),
    "    env:",
    "      STACKS: ${{ matrix.stacks }}",
    `      # Pulumi Cloud; for a self-managed backend set the secrets PULUMI_BACKEND_URL${secretsKeeper.passphrase ? " and PULUMI_CONFIG_PASSPHRASE" : ""} instead:`,
    "      # the URL holds the backend's credentials (postgres://user:password@host:5432/db?sslmode=require, or",
    "      # s3://bucket?region=eu-west-1 with the AWS keys as secrets too), so it is a secret, never a variable.",
    "      PULUMI_ACCESS_TOKEN: ${{ secrets.PULUMI_ACCESS_TOKEN }}",
    "      PULUMI_BACKEND_URL: ${{ secrets.PULUMI_BACKEND_URL }}",
    ...secretsKeeper.lines,
    ...(variables.length
      ? [
          "      # The clients file's env: variables, from the repository's secrets: a new client's key, say, before its stack holds it.",
          ...variables.map((name) => `      ${name}: \${{ secrets.${name} }}`),
        ]
      : []),
    "    steps:",
    `      - uses: ${PINNED_ACTIONS.checkout}`,
    "      # Node.js 24, the newest release of it: 24.7 to 24.18 have the util.inspect loop (nodejs/node#64011),",
    "      # and check-latest keeps an older 24.x in the runner's tool cache from being used.",
    `      - uses: ${PINNED_ACTIONS.setupNode}`,
    "        with:",
    "          node-version: 24",
    "          check-latest: true",
    "          cache: npm",
    "      - name: Install dependencies",
    "        run: npm ci",
    ...(program !== "." && !yamlProgram ? ["      - name: Install the program's dependencies", `        run: npm ci --prefix ${JSON.stringify(program)}`] : []),
    ...pluginSource,
    "      - name: Cache the Pulumi CLI and its plugins",
    "        id: pulumi-cache",
    `        uses: ${PINNED_ACTIONS.cache}`,
    "        with:",
    "          path: |",
    "            ~/.pulumi/bin",
    "            ~/.pulumi/plugins",
    `          key: pulumi-\${{ runner.os }}-${TESTED_PULUMI_CLI}-\${{ hashFiles('${program === "." ? "" : `${program}/`}Pulumi.yaml') }}`,
    "      - name: Install the Pulumi CLI",
    "        if: steps.pulumi-cache.outputs.cache-hit != 'true'",
    `        run: curl -fsSL https://get.pulumi.com | sh -s -- --version ${TESTED_PULUMI_CLI}`,
    "      - name: Put the Pulumi CLI on PATH",
    '        run: echo "$HOME/.pulumi/bin" >> "$GITHUB_PATH"',
    `      - name: ${title}`,
    "        shell: bash",
    "        run: |",
    "          set +e",
    `          npx pulumi-crm fleet ${command} --clients ${JSON.stringify(clients)} --only "$STACKS" 2>&1 | tee fleet.txt`,
    "          code=${PIPESTATUS[0]}",
    `          { echo "### ${title}: \\\`$STACKS\\\`"; echo; echo '\`\`\`'; cat fleet.txt; echo '\`\`\`'; } >> "$GITHUB_STEP_SUMMARY"`,
    '          exit "$code"',
  ];
  const header = (what: string) => [
    `# Written by \`pulumi-crm fleet ci\` from ${clients}: write it again when the clients change.`,
    `# ${what}`,
    "# Each job runs `pulumi-crm fleet` on its share of the stacks: its table is in the job summary;",
    "# exit code 1 if a client failed, was unreachable or its stack locked, 7 if one drifted.",
    "# A client's key is the secret in its stack (crm:apiToken), as `pulumi-crm fleet sync` wrote it.",
  ];
  return {
    "fleet-drift.yml": [
      ...header("Drift check of every client's stack, every day: `refresh --preview-only`, which writes nothing."),
      "name: Fleet drift check",
      "",
      "on:",
      "  schedule:",
      `    - cron: ${JSON.stringify(options.cron)}`,
      "  workflow_dispatch: {}",
      "",
      "permissions:",
      "  contents: read",
      "",
      "jobs:",
      "  drift:",
      ...job("Drift check", "drift"),
      "",
    ].join("\n"),
    "fleet-preview.yml": [
      ...header("On every pull request: what `pulumi up` would do to every client's stack, with the clients file's settings."),
      "name: Fleet preview",
      "",
      "on:",
      "  pull_request:",
      "    branches: [main]",
      "",
      "permissions:",
      "  contents: read",
      "",
      "jobs:",
      "  preview:",
      ...job("Preview", "preview"),
      "",
    ].join("\n"),
  };
}
