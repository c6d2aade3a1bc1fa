// crm.EventTracking: the account's event tracking switch (/eventTracking), on or off for the
// whole account: taken over, and put back as found on destroy (see ../crud/account-switch.ts).

import { accountSwitch } from "../crud/account-switch";

export const eventTracking = accountSwitch({
  description: "The account's event tracking switch, taken over and put back as it was found on destroy.",
  name: "EventTracking",
  member: "eventTracking",
  what: "event tracking",
});
