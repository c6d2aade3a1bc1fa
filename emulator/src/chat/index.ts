// The chat flow service: start a flow execution for a list of contacts, read it back.
// The core has authenticated the request (Authorization: Token <key>) and strips the
// chat root, so paths here start at /channel/{channel}/...
//
// The channel segment is `chat` in the seed and `whatsapp` in the real service; both are
// served and share one store. Ids in paths are UUIDs: the real service routes them with
// Django's <uuid:...> converter, so anything else matches no route and is answered 404.
// Only known flows run (flows.ts); another UUID is answered 404 too. A flow with a failure
// reason runs, and its runs end FAILED.

import type { EmulatedService, ServiceRequest, ServiceResponse } from "../service";
import { decodeBody } from "./body";
import { EXECUTION_DURATION_MS, FlowExecutions } from "./executions";
import { knownFlows, type Flow } from "./flows";
import { JSON_FORM_MEMBERS, parseFlowExecutionCreate } from "./serializers";

export { EXECUTION_DURATION_MS } from "./executions";
export { BUILT_IN_FLOWS, parseFlowFixtures, type Flow } from "./flows";

export interface ChatServiceOptions {
  /** Milliseconds since the epoch; executions progress against it. */
  now?: () => number;
  /** Flows known besides the built-in ones (a --fixtures file's `flows`). */
  flows?: readonly Flow[];
  /** How long an execution takes, its contacts done evenly over it; default EXECUTION_DURATION_MS. */
  executionDurationMs?: number;
}

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
// Django routes are written with a trailing slash; clients send both forms.
const RUN_PATH = new RegExp(`^/channel/(?:chat|whatsapp)/flow/(${UUID})/run/?$`);
const EXECUTION_PATH = new RegExp(`^/channel/(?:chat|whatsapp)/flow-execution/(${UUID})/?$`);

const NOT_FOUND: ServiceResponse = { status: 404, body: { detail: "Not found." } };

function methodNotAllowed(method: string, allowed: string): ServiceResponse {
  return { status: 405, headers: { allow: allowed }, body: { detail: `Method "${method}" not allowed.` } };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function createChatService(options: ChatServiceOptions = {}): EmulatedService {
  const durationMs = options.executionDurationMs ?? EXECUTION_DURATION_MS;
  if (!(durationMs > 0)) throw new Error(`the execution duration must be a positive number of milliseconds, got ${durationMs}`);
  const executions = new FlowExecutions(options.now ?? Date.now, durationMs);
  const flows = knownFlows(options.flows);

  async function runFlow(flowId: string, request: ServiceRequest): Promise<ServiceResponse> {
    // Before the body: a DRF detail action looks its object up (get_object) before it reads the data.
    const flow = flows.get(flowId);
    if (!flow) return NOT_FOUND;
    const decoded = await decodeBody(headerValue(request.headers["content-type"]), request.rawBody, JSON_FORM_MEMBERS);
    if (!decoded.ok) return decoded.response;
    if (decoded.data === null) return { status: 400, body: { non_field_errors: ["No data provided"] } };
    const parsed = parseFlowExecutionCreate(decoded.data);
    if (!parsed.ok) return { status: 400, body: parsed.error };
    return { status: 201, body: executions.start(flowId, parsed.value, flow.failureReason) };
  }

  return {
    async handle(request) {
      const run = RUN_PATH.exec(request.path);
      if (run) return request.method === "POST" ? runFlow(run[1].toLowerCase(), request) : methodNotAllowed(request.method, "POST");
      const read = EXECUTION_PATH.exec(request.path);
      if (read) {
        if (request.method !== "GET") return methodNotAllowed(request.method, "GET");
        const execution = executions.read(read[1].toLowerCase());
        return execution ? { status: 200, body: execution } : NOT_FOUND;
      }
      return NOT_FOUND;
    },
    snapshot: () => executions.snapshot(),
    restore: (state) => executions.restore(state),
    reset: () => executions.reset(),
  };
}
