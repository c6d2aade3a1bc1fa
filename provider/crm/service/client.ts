// The CRM service client: calls under /api/3 of the configured account. Its
// collections are paged by ./collection.ts.

import { ServiceClient } from "../../service-client";
import { crmService } from "../../settings";

export class CrmClient extends ServiceClient {
  constructor(resource: string) {
    super(crmService, resource);
  }
}
