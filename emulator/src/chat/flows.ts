// The flows the emulator knows. A run of any other flow is answered 404, as Django REST
// framework answers a detail route whose object does not exist (the seed shows no errors),
// so a wrong flow id is caught locally instead of first against a real account.
//
// Flows are configuration, not state: built in, or added with the `flows` member of a
// --fixtures file. The --data file does not keep them and a reset leaves them.

import { z } from "zod";

export interface Flow {
  id: string;
  name: string;
  /** Runs of this flow end FAILED with this status_reason, every contact failed; unset: they complete. */
  failureReason?: string;
}

export const BUILT_IN_FLOWS: readonly Flow[] = [
  // examples/flow-run and the chat.FlowRun page run it.
  { id: "2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31", name: "Welcome VIPs" },
  // The reference document's example flow id (the flow filter of List Flow Executions).
  { id: "a3ff7ee5-0c11-49e2-a0d6-7e316626f7b1", name: "Reference example" },
  { id: "bf5d0ee7-5586-408e-9d5a-a4fd63f166d4", name: "Order follow-up" },
  { id: "c8bea59b-8f6a-475c-937a-05aa7b497744", name: "Win back lapsed customers" },
  // A flow whose runs fail, so that waiting for a run can be tried against a failure.
  { id: "e371b3cb-5dd5-45ab-9426-9f24b62a49c0", name: "Broken webhook", failureReason: "The flow's webhook step answered 500 Internal Server Error." },
];

// FlowListRead in the reference: a UUID id, a name of at most 100 characters.
const flowsSchema = z.array(z.object({ id: z.string().uuid(), name: z.string().min(1).max(100), failureReason: z.string().min(1).optional() }));

/** The `flows` member of a --fixtures file's JSON text; undefined when it has none. */
export function parseFlowFixtures(text: string, source: string): Flow[] | undefined {
  const flows = (JSON.parse(text) as { flows?: unknown } | null)?.flows;
  if (flows === undefined) return undefined;
  const parsed = flowsSchema.safeParse(flows);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new Error(
      `${source}: flows must be an array of {id: UUID, name: 1 to 100 characters, failureReason?: text} (${["flows", ...issue.path].join(".")}: ${issue.message})`,
    );
  }
  return parsed.data;
}

/** The built-in flows and `added` (which win), by lower-case id. Names only describe flows: no route answers them. */
export function knownFlows(added: readonly Flow[] = []): Map<string, Flow> {
  return new Map([...BUILT_IN_FLOWS, ...added].map((flow) => [flow.id.toLowerCase(), flow]));
}
