// The account-wide setup: the mailing address every campaign needs, a calendar feed of
// the team's tasks, a welcome message and the account's branding, managed as code.
// Settings: crm:apiUrl and crm:apiToken (secret) in stack config, or the CRM_API_URL
// and CRM_API_TOKEN environment variables.
import { crm } from "pulumi-crm";

const headquarters = new crm.Address("headquarters", {
  companyName: "Acme Inc",
  address1: "1 Main Street",
  city: "Chicago",
  state: "IL",
  zip: "60601",
  country: "us",
  isDefault: true,
  groupId: "3",
});

const teamTasks = new crm.CalendarFeed("team-tasks", {
  title: "Team tasks",
  type: "All",
  notification: true,
});

const welcome = new crm.Message("welcome", {
  fromname: "Acme News",
  fromemail: "news@acme.example",
  reply2: "help@acme.example",
  subject: "Welcome to %LISTNAME%, %FIRSTNAME%",
  preheaderText: "You subscribed on %SUBDATE%",
});

// Taken over from the account, and put back as it was found on `pulumi destroy`.
const branding = new crm.Branding("branding", {
  siteName: "Acme Marketing",
  headerTextValue: "Acme Inc",
  favicon: "https://acme.example/favicon.ico",
  externalLinks: false,
});

export const addressId = headquarters.id;
export const calendarFeedId = teamTasks.id;
/** Secret: anyone with the feed's address and token can read the account's tasks. */
export const calendarFeedToken = teamTasks.token;
export const messageId = welcome.id;
export const brandingId = branding.id;
