// The tracking side of an account: site tracking on, with two allowed domains, and event
// tracking on, with two events (one with a space, deleted by its encoded name).
import { crm } from "pulumi-crm";

new crm.SiteTracking("site-tracking", { enabled: true });
for (const name of ["shop.acme.example", "blog.acme.example"]) new crm.SiteTrackingDomain(name.split(".")[0], { name });
new crm.EventTracking("event-tracking", { enabled: true });
for (const name of ["Signed up", "Watched demo"]) new crm.TrackedEvent(name.toLowerCase().replace(" ", "-"), { name });
