// Lookups (Pulumi "data sources") of the CRM service: each a `getX` answering a
// promise and a `getXOutput` answering an Output, run in the Pulumi program.
export { LookupInputs, LookupOptions, LookupOutputOptions } from "./kit";
export * from "./accounts";
export * from "./automations";
export * from "./campaigns";
export * from "./contacts";
export * from "./custom-objects";
export * from "./contact-side";
export * from "./sales-side";
