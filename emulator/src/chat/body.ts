// Request bodies in the three content types the reference declares for the run
// operation, decoded the way DRF's parsers do, with DRF's error bodies.
//
// Form encodings (application/x-www-form-urlencoded, multipart/form-data) carry one
// field per top-level member; members holding nested JSON (contact_list) are sent as a
// JSON text in their field, e.g. contact_list=[{"phone":"+15550100"}]. Form values are
// strings, which the fields coerce as DRF does (has_priority=true).

import type { ServiceResponse } from "../service";
import type { JsonObject } from "./fields";

export type DecodedBody = { ok: true; data: unknown } | { ok: false; response: ServiceResponse };

const badRequest = (detail: string): DecodedBody => ({ ok: false, response: { status: 400, body: { detail } } });

function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

export async function decodeBody(contentType: string | undefined, rawBody: Buffer, jsonMembers: readonly string[]): Promise<DecodedBody> {
  // DRF reads an empty body as no data, whatever its declared type.
  if (rawBody.length === 0) return { ok: true, data: {} };
  const type = mediaType(contentType);
  if (type === "application/json") {
    try {
      return { ok: true, data: JSON.parse(rawBody.toString("utf8")) };
    } catch (error) {
      return badRequest(`JSON parse error - ${(error as Error).message}`);
    }
  }
  if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data") {
    let form: FormData;
    try {
      form = await new Response(rawBody, { headers: { "content-type": contentType ?? type } }).formData();
    } catch (error) {
      return badRequest(`Multipart form parse error - ${(error as Error).message}`);
    }
    return decodeFormMembers(form, jsonMembers);
  }
  return {
    ok: false,
    response: { status: 415, body: { detail: `Unsupported media type "${contentType ?? ""}" in request.` } },
  };
}

function decodeFormMembers(form: FormData, jsonMembers: readonly string[]): DecodedBody {
  const data: JsonObject = {};
  // A repeated field keeps its last value, as Django's QueryDict does.
  form.forEach((value, name) => {
    data[name] = value;
  });
  const errors: JsonObject = {};
  for (const name of jsonMembers) {
    if (typeof data[name] !== "string") continue;
    try {
      data[name] = JSON.parse(data[name] as string);
    } catch {
      errors[name] = ["Value must be valid JSON."];
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, response: { status: 400, body: errors } };
  return { ok: true, data };
}
