// crm.SiteTracking: the account's site tracking switch (/siteTracking), on or off for the
// whole account: taken over, and put back as found on destroy (see ../crud/account-switch.ts).

import { accountSwitch } from "../crud/account-switch";

export const siteTracking = accountSwitch({
  description: "The account's site tracking switch, taken over and put back as it was found on destroy.",
  name: "SiteTracking",
  member: "siteTracking",
  what: "site tracking",
});
