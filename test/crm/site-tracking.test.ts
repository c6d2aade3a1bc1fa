import * as provider from "../../provider/crm/site-tracking";
import { describeAccountSwitch } from "../support/account-switch-suite";

describeAccountSwitch(provider, { type: "crm.SiteTracking", name: "SiteTracking", member: "siteTracking", what: "site tracking", other: "eventTracking" });
