export { Account, AccountArgs } from "./account";
export { CalendarFeed, CalendarFeedArgs } from "./calendar-feed";
