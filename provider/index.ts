// pulumi-crm: resources of the marketing and CRM service (`crm`) and of the chat flow service (`chat`).
import { warnIfNodeLoopsOnErrors } from "./node-version";
import { warnOfUnknownSettings } from "./settings";

export * as crm from "./crm";
export * as chat from "./chat";

warnIfNodeLoopsOnErrors();
warnOfUnknownSettings();
