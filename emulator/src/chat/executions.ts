// Flow executions and their progress. Progress is computed from the clock when an
// execution is read, never by timers, so an injected clock makes it deterministic.
//
// An execution runs its contacts evenly over the service's execution duration (default
// EXECUTION_DURATION_MS): contact k of n is done at created_on + k/n of it. Status goes
// RUNNING -> COMPLETED, or RUNNING -> CANCELED when a has_priority execution of the
// same flow starts (values from the reference's FlowExecutionStatusEnum; the seed
// leaves them open). A run of a flow with a failure reason fails each contact in turn
// instead and ends FAILED with that status_reason (the contact status enum's word).

import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { JsonObject } from "./fields";
import type { FlowExecutionCreate } from "./serializers";

export const EXECUTION_DURATION_MS = 3_000;

const storedExecutionSchema = z.object({
  id: z.string().uuid(),
  flowId: z.string().uuid(),
  hasPriority: z.boolean(),
  contactList: z.array(z.record(z.unknown())),
  createdOn: z.number(),
  cancellation: z.object({ at: z.number(), byExecution: z.string().uuid() }).nullable(),
  // Absent in state files written before flows could fail.
  failureReason: z.string().nullable().default(null),
});

const chatStateSchema = z.object({
  executions: z.array(storedExecutionSchema),
  /** Contact tags are answered with ids (ContactTag.id is read-only and required); one id per name. */
  tagIds: z.record(z.number().int()),
});

type StoredExecution = z.infer<typeof storedExecutionSchema>;
export type ChatState = z.infer<typeof chatStateSchema>;

export class FlowExecutions {
  private executions = new Map<string, StoredExecution>();
  private tagIds = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly durationMs: number,
  ) {}

  /** Starts a run of the flow; `failureReason` makes it end FAILED (see Flow). */
  start(flowId: string, request: FlowExecutionCreate, failureReason?: string): JsonObject {
    const now = this.now();
    const execution: StoredExecution = {
      id: randomUUID(),
      flowId,
      hasPriority: request.has_priority,
      contactList: request.contact_list.map((contact) => this.withTagIds(contact)),
      createdOn: now,
      cancellation: null,
      failureReason: failureReason ?? null,
    };
    if (execution.hasPriority) {
      for (const other of this.executions.values()) {
        if (other.flowId === flowId && isRunning(other, now, this.durationMs)) other.cancellation = { at: now, byExecution: execution.id };
      }
    }
    this.executions.set(execution.id, execution);
    return render(execution, now, this.durationMs);
  }

  read(id: string): JsonObject | undefined {
    const execution = this.executions.get(id);
    return execution && render(execution, this.now(), this.durationMs);
  }

  snapshot(): ChatState {
    return structuredClone({ executions: [...this.executions.values()], tagIds: Object.fromEntries(this.tagIds) });
  }

  restore(state: unknown): void {
    const parsed = chatStateSchema.safeParse(state);
    if (!parsed.success) throw new Error(`Invalid chat service state: ${parsed.error.message}`);
    this.executions = new Map(parsed.data.executions.map((execution) => [execution.id, execution]));
    this.tagIds = new Map(Object.entries(parsed.data.tagIds));
  }

  reset(): void {
    this.executions.clear();
    this.tagIds.clear();
  }

  private withTagIds(contact: JsonObject): JsonObject {
    if (!Array.isArray(contact.tags)) return contact;
    const tags = (contact.tags as JsonObject[]).map(({ name }) => ({ id: this.tagId(name as string), name }));
    return { ...contact, tags };
  }

  private tagId(name: string): number {
    let id = this.tagIds.get(name);
    if (id === undefined) {
      id = this.tagIds.size + 1;
      this.tagIds.set(name, id);
    }
    return id;
  }
}

/** Contacts done (completed, or failed in a failing run) by `time`, cancellation aside. */
function doneBy(execution: StoredExecution, time: number, durationMs: number): number {
  const total = execution.contactList.length;
  const done = Math.floor(((time - execution.createdOn) * total) / durationMs);
  return Math.min(total, Math.max(0, done));
}

function isRunning(execution: StoredExecution, now: number, durationMs: number): boolean {
  return execution.cancellation === null && doneBy(execution, now, durationMs) < execution.contactList.length;
}

function render(execution: StoredExecution, now: number, durationMs: number): JsonObject {
  const { cancellation, failureReason } = execution;
  const total = execution.contactList.length;
  const done = doneBy(execution, cancellation ? Math.min(now, cancellation.at) : now, durationMs);
  const [completed, failed] = failureReason === null ? [done, 0] : [0, done];
  const canceled = cancellation ? total - done : 0;
  const running = total - done - canceled;
  const finishedOn = execution.createdOn + (total > 0 ? durationMs : 0);
  const status = cancellation ? "CANCELED" : running > 0 ? "RUNNING" : failureReason === null ? "COMPLETED" : "FAILED";
  const statusChangedOn = cancellation ? cancellation.at : running > 0 ? execution.createdOn : finishedOn;
  // Contact k of n takes k/n of the duration, so the mean over the first `completed` is (completed+1)/2n of it.
  const averageCompletionMs = completed > 0 ? (durationMs * (completed + 1)) / (2 * total) : 0;
  const statusReason = cancellation ? `Canceled by the priority flow execution ${cancellation.byExecution}.` : running === 0 ? failureReason : null;
  return {
    id: execution.id,
    status,
    execute_for: "LIST",
    has_priority: execution.hasPriority,
    flow_execution_variables: {},
    start_on: null,
    num_contacts: total,
    expired: 0,
    running,
    completed,
    canceled,
    failed,
    created_on: new Date(execution.createdOn).toISOString(),
    avg_completion_time: durationText(averageCompletionMs),
    status_reason: statusReason,
    status_triggered_by: null,
    status_last_change_on: new Date(statusChangedOn).toISOString(),
    contact_filters: [],
    contact_list: execution.contactList,
    source: "API",
    is_hidden: false,
  };
}

/** A duration as Django's DurationField writes it: "[D ]HH:MM:SS[.ffffff]". */
function durationText(milliseconds: number): string {
  const totalMicroseconds = Math.round(milliseconds * 1000);
  const microseconds = totalMicroseconds % 1_000_000;
  const totalSeconds = (totalMicroseconds - microseconds) / 1_000_000;
  const days = Math.floor(totalSeconds / 86_400);
  const clock = [Math.floor(totalSeconds / 3600) % 24, Math.floor(totalSeconds / 60) % 60, totalSeconds % 60]
    .map((part) => String(part).padStart(2, "0"))
    .join(":");
  return `${days > 0 ? `${days} ` : ""}${clock}${microseconds > 0 ? `.${String(microseconds).padStart(6, "0")}` : ""}`;
}
