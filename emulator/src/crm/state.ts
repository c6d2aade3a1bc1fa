import type { Row, Table, TableSnapshot } from "./store";

/**
 * What the CRM account's modules share of its data: timestamps (epoch milliseconds, formatted on
 * the way out), the rows several modules read, and the snapshot of the tables state files keep.
 * Each table, and a row only its module reads, is its module's (resources/, listed in modules.ts).
 */

export interface Timestamps {
  createdMs: number;
  updatedMs: number;
}

export interface AccountRow extends Row, Timestamps {
  name: string;
  accountUrl: string | null;
}

export interface ContactRow extends Row, Timestamps {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
}

type Tables = Record<string, Table<Row>>;

/** The tables' rows by table name, as a state file keeps them. */
export type Snapshot<T extends Tables> = { [name in keyof T]?: TableSnapshot<Row> };

export function snapshotTables<T extends Tables>(tables: T): Snapshot<T> {
  const snapshot: Snapshot<T> = {};
  for (const name of Object.keys(tables) as Array<keyof T>) snapshot[name] = tables[name].snapshot();
  return snapshot;
}

/** Tables missing from an older snapshot stay empty rather than failing the start. */
export function restoreTables<T extends Tables>(tables: T, snapshot: Snapshot<T>): void {
  for (const name of Object.keys(tables) as Array<keyof T>) {
    const saved = snapshot[name];
    if (saved) tables[name].restore(saved);
    else tables[name].clear();
  }
}
