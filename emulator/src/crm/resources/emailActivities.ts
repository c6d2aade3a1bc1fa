import { ApiError, ok } from "../api";
import type { Route } from "../router";
import { crmModule } from "../module";

export const emailActivitiesModule = crmModule({ tables: {}, routes: () => emailActivityRoutes });

/** The filters the reference lists, each an int32 id: the contact's, the deal's. */
const ID_FILTERS = ["filters[subscriberid]", "filters[dealId]"];

/**
 * GET /emailActivities: the emails exchanged with a contact or on a deal. The emulator sends and
 * receives none, so the collection is empty. The reference declares a 400 with the body {} and
 * says not when; a filter that is not an id is the plausible case.
 */
const emailActivityRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/emailActivities",
    handle: (req) => {
      if (ID_FILTERS.some((name) => req.query.has(name) && !/^\d+$/.test(req.query.get(name)!))) throw new ApiError({ status: 400, body: {} });
      return ok({ emailActivities: [], meta: { total: "0" } });
    },
  },
];
