import type { ServiceResponse } from "../service";

/** What a CRM route handler sees of a request. */
export interface CrmRequest {
  method: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body; undefined when the body is empty. */
  body: unknown;
  /** "http://host:port/api/3", the base of every link the response carries. */
  baseUrl: string;
  token: string;
}

/** Thrown by handlers and validators; the service answers with its response. */
export class ApiError extends Error {
  constructor(readonly response: ServiceResponse) {
    super(`HTTP ${response.status}`);
  }
}

export const ok = (body: unknown): ServiceResponse => ({ status: 200, body });
export const created = (body: unknown): ServiceResponse => ({ status: 201, body });

/** 404 in the {message} style most resources use: "No Result found for Address with id 3" (a group's read and update answer it 403). */
export function noResultFound(recordType: string, id: string, status: 403 | 404 = 404): ApiError {
  return new ApiError({ status, body: { message: `No Result found for ${recordType} with id ${id}` } });
}

/** The row, or a 404 (or `status`) {message} naming the record type and id. */
export function orNoResult<T>(row: T | undefined, recordType: string, id: string, status: 403 | 404 = 404): T {
  if (row === undefined) throw noResultFound(recordType, id, status);
  return row;
}

/** 404 in the {errors} style of the custom account field resources. */
export function notFound(): ApiError {
  return new ApiError({ status: 404, body: { errors: [{ status: 404, title: "Not Found" }] } });
}

export function forbidden(message: string): ApiError {
  return new ApiError({ status: 403, body: { message } });
}

export function badRequest(message: string): ApiError {
  return new ApiError({ status: 400, body: { message } });
}

export type ErrorCode = "field_missing" | "field_invalid" | "duplicate";

export interface FieldError {
  title: string;
  detail: string;
  code: ErrorCode;
  source: { pointer: string };
}

export function fieldError(code: ErrorCode, field: string, title: string, detail = ""): FieldError {
  return { title, detail, code, source: { pointer: `/data/attributes/${field}` } };
}

export function unprocessable(...errors: FieldError[]): ApiError {
  return new ApiError({ status: 422, body: { errors } });
}

export type Attributes = Record<string, unknown>;

export function isObject(value: unknown): value is Attributes {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The object under body[member] ({account: {...}}); {} when absent so required-field checks report it. */
export function attributesOf(req: CrmRequest, member: string): Attributes {
  const body = req.body;
  if (body === undefined) return {};
  if (!isObject(body)) throw unprocessable(fieldError("field_invalid", member, `The request body must be an object with a ${member} member.`));
  const value = body[member];
  if (value === undefined) return {};
  if (!isObject(value)) throw unprocessable(fieldError("field_invalid", member, `The ${member} member must be an object.`));
  return value;
}

/**
 * The attributes of a write whose reference request carries them at the top of the body
 * (/taskOutcomes, /groupMembers, /dealRoles), or under `member` as the service's other writes do.
 */
export function bareAttributesOf(req: CrmRequest, member: string): Attributes {
  const body = req.body;
  if (isObject(body) && body[member] === undefined) return body;
  return attributesOf(req, member);
}

/** A present, non-blank string (numbers are accepted and stringified, as the service does). */
export function requiredString(attrs: Attributes, field: string, title = `The ${field} attribute was not provided.`): string {
  const value = optionalString(attrs, field);
  if (value === undefined || value.trim() === "") throw unprocessable(fieldError("field_missing", field, title));
  return value;
}

export function optionalString(attrs: Attributes, field: string): string | undefined {
  const value = attrs[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw unprocessable(fieldError("field_invalid", field, `The ${field} attribute must be a string.`));
}

/** Ids travel as int32 or digit strings; null when the value is neither. */
export function idOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && /^\d+$/.test(value.trim()) && Number(value) > 0) return String(Number(value));
  return null;
}

/** A required id attribute: field_missing when absent, field_invalid when not an id. */
export function requiredId(attrs: Attributes, field: string): string {
  if (attrs[field] === undefined || attrs[field] === null || attrs[field] === "") {
    throw unprocessable(fieldError("field_missing", field, `The ${field} attribute was not provided`));
  }
  const id = idOf(attrs[field]);
  if (id === null) throw unprocessable(fieldError("field_invalid", field, `The ${field} attribute must be an integer id`));
  return id;
}

/** Flags arrive as booleans, 0/1 or "0"/"1"; stored as 0/1. */
export function flagOf(value: unknown): 0 | 1 {
  return value === true || value === 1 || value === "1" || value === "true" ? 1 : 0;
}
