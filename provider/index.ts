// pulumi-crm: resources of the marketing and CRM service (`crm`) and of the chat flow service (`chat`).
export * as crm from "./crm";
export * as chat from "./chat";
