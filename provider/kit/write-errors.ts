// Failures after a write took effect, which the host records so that the next up
// carries on instead of acting twice, and the confirmation of every write.

import { type FailureDetail, ServiceError } from "../transport/errors";
import { differingFields, valueInMessage } from "./check-diff";

/**
 * A write the service answered but did not take. It carries the object's id and its
 * state as the service holds it, so the host records the object (Pulumi's "failed to
 * initialize") and the next `up` tries the change again, instead of orphaning it.
 */
export class UnconfirmedWriteError extends ServiceError {
  readonly reasons: string[];

  constructor(
    message: string,
    field: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
  ) {
    super(message, { code: "unconfirmed", field });
    this.reasons = [message];
  }
}

/**
 * An action that took effect and then failed (a run that started and ended FAILED, a
 * sync part of whose batches were queued). It carries the resource's id and outputs,
 * so the host records it (Pulumi's "failed to initialize") and the next `up` carries
 * on from there, instead of acting a second time.
 */
export class PartlyDoneError extends ServiceError {
  readonly reasons: string[];

  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    failure: FailureDetail = {},
  ) {
    super(message, failure);
    this.reasons = [message];
  }
}

/**
 * A write is confirmed only by what comes back: the service answers 200 to a PUT it
 * ignored. Throws, naming each field whose value differs from the one sent.
 */
export function confirmWrite(resource: string, id: string, sent: Record<string, unknown>, got: Record<string, unknown>): void {
  const ignored = differingFields(sent, got);
  if (!ignored.length) return;
  const fields = ignored.map((field) => `${field} (sent ${valueInMessage(sent[field])}, service has ${valueInMessage(got[field] ?? null)})`);
  throw new UnconfirmedWriteError(
    `${resource}: the service accepted the write but did not take ${fields.join(", ")}; run \`pulumi up\` again, and report it if it persists.`,
    ignored[0],
    id,
    got,
  );
}
