import type { ServiceResponse } from "../service";
import type { CrmRequest } from "./api";

export interface Route {
  method: string;
  /** Path below /api/3 with ":name" parameters, e.g. "/accounts/:id/notes/:noteid". */
  pattern: string;
  handle(req: CrmRequest): ServiceResponse;
}

interface CompiledRoute extends Route {
  segments: string[];
  paramCount: number;
}

export type RouteMatch =
  | { kind: "route"; route: Route; params: Record<string, string> }
  | { kind: "wrongMethod"; pattern: string; allowed: string[] }
  | { kind: "none" };

export class Router {
  private readonly routes: CompiledRoute[];

  constructor(private readonly order: Route[]) {
    // Literal segments win over parameters ("/accounts/bulk_delete" before "/accounts/:id").
    this.routes = order
      .map((route) => {
        const segments = splitPath(route.pattern);
        return { ...route, segments, paramCount: segments.filter((s) => s.startsWith(":")).length };
      })
      .sort((a, b) => a.paramCount - b.paramCount);
  }

  /** Every operation served, "GET /accounts/{id}" as the reference writes its paths, in the order given. */
  operations(): string[] {
    return this.order.map((route) => `${route.method} ${route.pattern.replace(/:(\w+)/g, "{$1}")}`);
  }

  match(method: string, path: string): RouteMatch {
    const segments = splitPath(path);
    const allowed: string[] = [];
    let pattern = "";
    for (const route of this.routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === method) return { kind: "route", route, params };
      allowed.push(route.method);
      pattern ||= route.pattern;
    }
    return allowed.length > 0 ? { kind: "wrongMethod", pattern, allowed } : { kind: "none" };
  }
}

/** Trailing slashes are tolerated: the seed writes "/accounts/bulk_delete/". */
function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

function matchSegments(pattern: string[], path: string[]): Record<string, string> | undefined {
  if (pattern.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i].startsWith(":")) params[pattern[i].slice(1)] = decodeURIComponent(path[i]);
    else if (pattern[i] !== path[i]) return undefined;
  }
  return params;
}
