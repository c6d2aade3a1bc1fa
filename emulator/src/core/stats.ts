/** Request counters for GET /__emulator/stats, keyed by route template ("GET /api/3/accounts/:id"). */
export interface StatsReport {
  requests: number;
  byRoute: Record<string, number>;
  byStatus: Record<string, number>;
  byRouteAndStatus: Record<string, Record<string, number>>;
}

export class RequestStats {
  private report: StatsReport = RequestStats.empty();

  private static empty(): StatsReport {
    return { requests: 0, byRoute: {}, byStatus: {}, byRouteAndStatus: {} };
  }

  /** status is the HTTP status, "reset" for a connection dropped before the work, "lost" for one dropped after it. */
  record(route: string, status: number | "reset" | "lost"): void {
    const key = String(status);
    const report = this.report;
    report.requests += 1;
    report.byRoute[route] = (report.byRoute[route] ?? 0) + 1;
    report.byStatus[key] = (report.byStatus[key] ?? 0) + 1;
    const statuses = (report.byRouteAndStatus[route] ??= {});
    statuses[key] = (statuses[key] ?? 0) + 1;
  }

  snapshot(): StatsReport {
    return structuredClone(this.report);
  }

  reset(): void {
    this.report = RequestStats.empty();
  }
}
