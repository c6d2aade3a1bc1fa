// Holds the requests a recording proxy saw to the reference OpenAPI document: each is an
// operation it declares, and each body validates against that operation's request
// schema, with unset members left out rather than null.

import { schemaErrors } from "../contract/harness";
import { ReferenceDocument } from "../contract/reference";
import type { ProxiedRequest } from "./recording-proxy";

let crmReference: ReferenceDocument | undefined;

/** Where a JSON value holds null, as dotted paths. */
function nullsIn(value: unknown, path = "body"): string[] {
  if (value === null) return [path];
  if (typeof value !== "object") return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => nullsIn(child, `${path}.${key}`));
}

/**
 * What is wrong with the CRM requests recorded, one line each. A GET of a relation
 * (`/addresses/3/addressGroup`) follows a link the reference's responses carry, and is
 * not an operation of its own.
 */
export function nonConformingRequests(requests: readonly ProxiedRequest[]): string[] {
  crmReference ??= new ReferenceDocument("crm-v3.openapi.json");
  const problems: string[] = [];
  for (const request of requests) {
    const path = request.path.replace(/^\/api\/3/, "");
    const template = crmReference.templateOf(request.method, path);
    if (!template) {
      if (!(request.method === "GET" && /^\/\w+\/\d+\/\w+$/.test(path))) problems.push(`${request.method} ${path}: not an operation of the reference`);
      continue;
    }
    if (request.body === undefined) continue;
    const schema = crmReference.operation(request.method, template).requestSchema();
    const errors = schema && schemaErrors(schema, request.body);
    if (errors) problems.push(`${request.method} ${template}: ${errors} in ${JSON.stringify(request.body)}`);
    for (const where of nullsIn(request.body)) problems.push(`${request.method} ${template}: ${where} is null`);
  }
  return problems;
}
