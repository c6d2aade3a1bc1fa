// The Pulumi package schemas of `crm` and `chat` (two packages, so that each keeps its own
// config namespace), from the resources' declarations, the registry and the settings:
// config variables, every resource with its alias to the dynamic resource type deployed
// stacks hold, and the language blocks the SDK generators read. Written to schema/*.json by
// `npm run generate`; bound by Pulumi's own binder in test/package/package-schema.test.ts.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Field } from "../../provider/kit/declaration";
import type { ValueType } from "../../provider/kit/value-types";
import { resources } from "../../provider/registry";
import { channelSetting, chatService, crmService, type ServiceSettingsSpec } from "../../provider/settings";
import { lookupFunctions } from "./lookup-functions";
import { alwaysOutput, inputDescription, outputDescription } from "./declaration-text";

const root = join(__dirname, "..", "..");
const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; license: string; repository: { url: string } };

/** The project's repository, `https://github.com/<org>/<repo>`, as package.json names it. */
export const repositoryUrl = packageJson.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");

/** The logo the Registry shows (docs/logo.svg, as the repository's main branch serves it). */
const logoUrl = `${repositoryUrl.replace(/^https:\/\/github\.com\//, "https://raw.githubusercontent.com/")}/main/docs/logo.svg`;

/**
 * Where the CLI downloads the plugins: the repository's GitHub releases, whose assets are the
 * archives `npm run release` writes (pulumi-resource-<pkg>-v<version>-<os>-<arch>.tar.gz). Written
 * into every SDK, and so into each provider resource a program registers.
 */
export const pluginDownloadURL = repositoryUrl.replace(/^https:\/\/github\.com\//, "github://api.github.com/");

type Spec = Record<string, unknown>;

interface ConfigVariable {
  key: string;
  env: string;
  type: "string" | "number";
  secret?: boolean;
  description: string;
}

const serviceSettings = (spec: ServiceSettingsSpec, address: string): ConfigVariable[] => [
  {
    ...spec.url,
    type: "string",
    description: `The ${spec.service} service's API address, ${address}. https only; plain http is taken for loopback addresses (the local emulator).`,
  },
  { ...spec.token, type: "string", secret: true, description: `The ${spec.service} service's API key.` },
  {
    ...spec.rate,
    type: "number",
    description: `Requests per second to the ${spec.service} service allowed to one provider process per account: default 5, the service's limit; 0 turns limiting off.`,
  },
];

const packages = {
  crm: {
    displayName: "CRM",
    description: "Resources of a marketing-automation and CRM account (API v3).",
    settings: serviceSettings(crmService, "e.g. https://myaccount.api-us1.com (with or without /api/3)"),
  },
  chat: {
    displayName: "CRM chat",
    description: "Flow runs of the CRM's chat flow service.",
    settings: [
      ...serviceSettings(chatService, "e.g. https://chat.example.com"),
      {
        ...channelSetting,
        type: "string",
        description: "The channel path segment of flow runs: chat (the default, as the specification writes it) or whatsapp (the real service's paths).",
      },
    ] as ConfigVariable[],
  },
};

/** The description of each resource (`crm.Account` -> its text), its definition's: what the schema and its class's doc comment say of it. */
export function classDescriptions(): Map<string, string> {
  return new Map(resources.map((resource) => [`${resource.namespace}.${resource.className}`, resource.definition.description]));
}

/** A schema type for a field's type; object and enum types are added to `types` under `${pkg}:index:<name>`. */
function typeSpec(type: ValueType, pkg: string, types: Record<string, Spec>, enumName: string): Spec {
  switch (type.kind) {
    case "string":
    case "id":
      return { type: "string" };
    case "integer":
    case "number":
    case "boolean":
      return { type: type.kind };
    case "any":
      return { $ref: "pulumi.json#/Any" };
    case "enum":
      types[`${pkg}:index:${enumName}`] = { type: "string", enum: type.values.map((value) => ({ value })) };
      return { $ref: `#/types/${pkg}:index:${enumName}` };
    case "list":
      return { type: "array", items: typeSpec(type.items, pkg, types, `${enumName}Item`) };
    case "map":
      return { type: "object", additionalProperties: typeSpec(type.values, pkg, types, `${enumName}Value`) };
    case "union":
      return { oneOf: type.members.map((member) => typeSpec(member, pkg, types, enumName)) };
    case "object": {
      const token = `${pkg}:index:${type.name}`;
      types[token] = {
        type: "object",
        description: type.description,
        properties: Object.fromEntries(
          Object.entries(type.fields).map(([name, member]) => [
            name,
            { ...typeSpec(member.type, pkg, types, `${type.name}${capitalized(name)}`), description: outputDescription(member) },
          ]),
        ),
        required: Object.entries(type.fields)
          .filter(([, member]) => member.required)
          .map(([name]) => name),
      };
      return { $ref: `#/types/${token}` };
    }
  }
}

const capitalized = (name: string) => `${name[0].toUpperCase()}${name.slice(1)}`;
const primitive = (value: unknown) => ["string", "number", "boolean"].includes(typeof value);

function propertySpec(field: Field, side: "input" | "output", pkg: string, resource: string, types: Record<string, Spec>): Spec {
  return {
    ...typeSpec(field.type, pkg, types, `${resource}${capitalized(field.name)}`),
    description: side === "input" ? inputDescription(field) : outputDescription(field),
    ...(side === "input" && primitive(field.default) ? { default: field.default } : {}),
    ...(field.replaceOnChanges ? { replaceOnChanges: true } : {}),
    ...(field.secret ? { secret: true } : {}),
  };
}

function configSpec(variable: ConfigVariable): Spec {
  return {
    type: variable.type,
    description: `${variable.description} Or the ${variable.env} environment variable.`,
    ...(variable.secret ? { secret: true } : {}),
  };
}

/** The schema of each package, by name. */
export function packageSchemas(): Map<string, Spec> {
  const descriptions = classDescriptions();
  const schemas = new Map<string, Spec>();
  for (const [name, about] of Object.entries(packages)) {
    const types: Record<string, Spec> = {};
    const variables = Object.fromEntries(about.settings.map((variable) => [variable.key.split(":")[1], configSpec(variable)]));
    const resourceSpecs: Record<string, Spec> = {};
    for (const resource of resources.filter((entry) => entry.namespace === name)) {
      const { declaration } = resource.definition;
      const inputs = declaration.fields.filter((field) => field.role !== "output");
      const outputs = declaration.fields.filter((field) => field.role !== "input");
      resourceSpecs[declaration.token] = {
        description: descriptions.get(declaration.type),
        properties: Object.fromEntries(outputs.map((field) => [field.name, propertySpec(field, "output", name, resource.className, types)])),
        required: outputs.filter(alwaysOutput).map((field) => field.name),
        inputProperties: Object.fromEntries(inputs.map((field) => [field.name, propertySpec(field, "input", name, resource.className, types)])),
        requiredInputs: inputs.filter((field) => field.required).map((field) => field.name),
        // A stack deployed with the dynamic resource moves to the native one without a replace.
        aliases: [{ type: declaration.dynamicType }],
      };
    }
    schemas.set(name, {
      name,
      displayName: about.displayName,
      version: packageJson.version,
      description: about.description,
      // kind/native: the Registry's badge for a provider of its own (not a bridged Terraform one).
      keywords: ["pulumi", name, "category/utility", "kind/native"],
      license: packageJson.license,
      repository: repositoryUrl,
      pluginDownloadURL,
      publisher: "pulumi-crm",
      logoUrl,
      meta: { moduleFormat: "(.*)" },
      config: { variables },
      provider: {
        description: `The provider of the ${name} package: its settings, as the stack's \`${name}:\` config gives them.`,
        inputProperties: variables,
      },
      types,
      resources: resourceSpecs,
      functions: name === "crm" ? lookupFunctions(name, types) : {},
      // What the SDK generators read (tools/schema-check -sdks). respectSchemaVersion: each SDK
      // carries the package's version, and asks for the plugin of that version, instead of a
      // placeholder (Node's `${VERSION}`, Python's 0.0.0) a release script would replace.
      language: {
        nodejs: {
          packageName: `@pulumi-crm/${name}`,
          packageDescription: about.description,
          dependencies: { "@pulumi/pulumi": "^3.216.0" },
          respectSchemaVersion: true,
        },
        python: {
          packageName: name === "crm" ? "pulumi_crm" : `pulumi_crm_${name}`,
          requires: { pulumi: ">=3.216.0,<4.0.0" },
          pyproject: { enabled: true },
          respectSchemaVersion: true,
        },
        go: { importBasePath: `github.com/pulumi-crm/pulumi-crm/sdk/go/${name}`, generateResourceContainerTypes: true, respectSchemaVersion: true },
      },
    });
  }
  return schemas;
}
