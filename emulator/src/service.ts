// The contract between the emulator's HTTP core (server, auth, rate limit, faults,
// stats, persistence) and each emulated service. The core parses the request,
// authenticates it for the service it targets, and hands the service only what it needs.

export interface ServiceRequest {
  method: string;
  /** Path below the service root: "/accounts/12" for the CRM service, "/channel/chat/flow/<id>/run" for chat. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  /** The credential the core authenticated the request with. */
  token: string;
  /** Where the account the request came to is served below the server root: "" for the default account, "/acct/acme" for a named one. */
  accountPath: string;
}

export interface ServiceResponse {
  status: number;
  headers?: Record<string, string>;
  /** Serialized as JSON; undefined sends an empty body; JsonBytes and TextBody are sent as they are. */
  body?: unknown;
}

/** A body serialized already (UTF-8 JSON), for responses built from JSON kept between requests. */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

/** A body that is not JSON, sent as it is with its content type. */
export class TextBody {
  constructor(
    readonly contentType: string,
    readonly text: string,
  ) {}
}

/** What the CRM service's web server answers to a path no route serves: a 404 page in HTML (REAL-WORLD.md), not JSON. */
export const NOT_FOUND_PAGE: ServiceResponse = {
  status: 404,
  body: new TextBody(
    "text/html; charset=UTF-8",
    "<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n",
  ),
};

export interface EmulatedService {
  handle(request: ServiceRequest): ServiceResponse | Promise<ServiceResponse>;
  /** A JSON-serializable copy of the whole state, for --data persistence. */
  snapshot(): unknown;
  restore(state: unknown): void;
  reset(): void;
}

/** A service the core can also ask for the route template of a path, for the stats page. */
export interface MountedService extends EmulatedService {
  /** "/accounts/:id" for "/accounts/12"; undefined when no route matches. */
  routeTemplate?(method: string, path: string): string | undefined;
}
