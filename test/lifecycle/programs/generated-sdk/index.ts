// A program on the generated Node.js SDK (@pulumi-crm/crm, packed from sdk/nodejs/crm): a
// crm.Account per name in the stack's config `generated-sdk:accounts` (a JSON list; none: a
// program without resources), through the native plugin pulumi-resource-crm.
import * as crm from "@pulumi-crm/crm";
import * as pulumi from "@pulumi/pulumi";

const names = new pulumi.Config().getObject<string[]>("accounts") ?? [];

export const accountIds = names.map((name) => new crm.Account(name, { name }).id);
