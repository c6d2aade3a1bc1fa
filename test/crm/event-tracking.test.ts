import * as provider from "../../provider/crm/event-tracking";
import { describeAccountSwitch } from "../support/account-switch-suite";

describeAccountSwitch(provider, { type: "crm.EventTracking", name: "EventTracking", member: "eventTracking", what: "event tracking", other: "siteTracking" });
