// The fleet's report: a table per client for people, JSON for CI.

import { type ClientOutcome, exitCodeOf, type Operation, type Planned } from "./run";

const VERB: Record<Operation, string> = { sync: "wrote", preview: "would change", up: "changed", drift: "changed", destroy: "deleted", offboard: "deleted" };
const DONE: Record<Planned["how"], string> = { create: "created", update: "updated", replace: "replaced", delete: "deleted" };

/** The resources changed, by how: `1 created (crm:index:Address address); 1 updated (crm:index:Message newsletter: fromname)`. */
function plannedText(planned: Planned[], operation: Operation): string {
  const order: Planned["how"][] = ["create", "update", "replace", "delete"];
  return order
    .map((how) => planned.filter((item) => item.how === how))
    .filter((items) => items.length)
    .map(
      (items) =>
        `${items.length} ${operation === "preview" ? `to be ${DONE[items[0].how]}` : DONE[items[0].how]} (${items.map((item) => `${item.resource}${item.fields.length ? `: ${item.fields.join(", ")}` : ""}`).join(", ")})`,
    )
    .join("; ");
}

/** The table's Result cell of one client. */
function result(outcome: ClientOutcome, operation: Operation): string {
  switch (outcome.status) {
    case "no change":
      return operation === "drift" ? "no drift" : "no change";
    case "changed":
      if (operation === "sync") return "stack and settings written";
      return `${VERB[operation]} ${outcome.changes ?? 0} resource${outcome.changes === 1 ? "" : "s"}${operation === "offboard" ? ", stack removed" : ""}${outcome.planned?.length && operation !== "destroy" && operation !== "offboard" ? `: ${plannedText(outcome.planned, operation)}` : ""}`;
    case "drift":
      return `${(outcome.drift ?? []).map((item) => `${item.resource} ${item.how === "gone" ? "(gone)" : `(${item.fields.join(", ") || "changed"})`}`).join("; ")}`;
    case "unreachable":
    case "locked":
    case "interrupted":
    case "failed":
      return outcome.error ?? "";
  }
}

/** The table, a line per client, then a line of totals and what the exit code says. */
export function formatTable(outcomes: ClientOutcome[], operation: Operation, interrupted = false): string {
  const rows = outcomes.map((outcome) => [outcome.stack, outcome.status, `${outcome.seconds.toFixed(1)} s`, result(outcome, operation)]);
  const header = ["Client", "Status", "Time", "Result"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : column === 2 ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join("  ")
      .trimEnd();
  const counts = new Map<string, number>();
  for (const outcome of outcomes) counts.set(outcome.status, (counts.get(outcome.status) ?? 0) + 1);
  const code = exitCodeOf(outcomes, interrupted);
  const why =
    code === 130
      ? "exit code 130: interrupted (Ctrl-C)"
      : code === 1
        ? "exit code 1: a client failed, was unreachable, locked or interrupted"
        : code === 7
          ? "exit code 7: drift in a client's account"
          : "exit code 0";
  const totals = [...counts].map(([status, count]) => `${count} ${status}`).join(", ");
  return [line(header), ...rows.map(line), "", `${outcomes.length} client${outcomes.length === 1 ? "" : "s"}: ${totals}; ${why}`, ""].join("\n");
}

/** The JSON report: the operation, the exit code and each client's outcome. */
export function formatJson(outcomes: ClientOutcome[], operation: Operation, interrupted = false): string {
  return `${JSON.stringify({ operation, exitCode: exitCodeOf(outcomes, interrupted), interrupted, clients: outcomes }, null, 2)}\n`;
}
