import type { IncomingHttpHeaders } from "node:http";
import type { MountedService } from "../service";
import type { RateLimiter } from "./rateLimit";

/** Where a service lives under the server root, how its callers present their key, and its own rate limit. */
export interface Mount {
  prefix: string;
  service: MountedService;
  limiter: RateLimiter;
  credentialFrom(headers: IncomingHttpHeaders): string | undefined;
  /** Body of the 403 answered when the key is missing or unknown, in the service's own style. */
  forbiddenBody(keySent: boolean): unknown;
}

/** Fallback for services without routeTemplate: ids (digits or UUIDs) become ":id". */
export function genericTemplate(path: string): string {
  return path
    .split("/")
    .map((segment) => (/^\d+$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(segment) ? ":id" : segment))
    .join("/");
}
