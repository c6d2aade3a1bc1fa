/** In-memory tables with service-assigned digit-string ids, as the real service hands out. */

export interface Row {
  id: string;
}

export interface TableSnapshot<T> {
  nextId: number;
  rows: T[];
}

export class Table<T extends Row> {
  private rows = new Map<string, T>();
  private nextId = 1;

  insert(fields: Omit<T, "id">): T {
    const row = { ...fields, id: String(this.nextId++) } as T;
    this.rows.set(row.id, row);
    return row;
  }

  /** Stores a row whose id the caller chose (custom objects use UUIDs). */
  put(row: T): T {
    this.rows.set(row.id, row);
    return row;
  }

  get(id: string | undefined): T | undefined {
    return id === undefined ? undefined : this.rows.get(id);
  }

  /** All rows in creation order, which is also the default order of collections. */
  all(): T[] {
    return [...this.rows.values()];
  }

  where(predicate: (row: T) => boolean): T[] {
    return this.all().filter(predicate);
  }

  find(predicate: (row: T) => boolean): T | undefined {
    for (const row of this.rows.values()) if (predicate(row)) return row;
    return undefined;
  }

  delete(id: string): boolean {
    return this.rows.delete(id);
  }

  get size(): number {
    return this.rows.size;
  }

  clear(): void {
    this.rows.clear();
    this.nextId = 1;
  }

  snapshot(): TableSnapshot<T> {
    return { nextId: this.nextId, rows: this.all() };
  }

  restore(snapshot: TableSnapshot<T>): void {
    this.rows = new Map(snapshot.rows.map((row) => [row.id, row]));
    this.nextId = snapshot.nextId;
  }
}

/** A to-one relation as the list the sideloader expects. */
export function listOf<T>(row: T | undefined): T[] {
  return row === undefined ? [] : [row];
}
