// Resources of the chat flow service. Its settings (chat:apiUrl, chat:apiToken)
// and transport are in place; the flow-run action resource is tracked separately.
export {};
