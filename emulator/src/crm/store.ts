/** In-memory tables with service-assigned digit-string ids, as the real service hands out. */

export interface Row {
  id: string;
}

export interface TableSnapshot<T> {
  nextId: number;
  rows: T[];
}

export interface TableOptions<T> {
  /**
   * A lookup key the table indexes its rows by (several rows may share one), so that
   * withKey answers without a scan. Rows must change their key only through update().
   */
  keyOf?(row: T): string;
}

export class Table<T extends Row> {
  private rows = new Map<string, T>();
  private nextId = 1;
  /** key -> ids of the rows with that key; empty without options.keyOf. */
  private byKey = new Map<string, Set<string>>();

  constructor(private readonly options: TableOptions<T> = {}) {}

  insert(fields: Omit<T, "id">): T {
    return this.put({ ...fields, id: String(this.nextId++) } as T);
  }

  /** Stores a row whose id the caller chose (custom objects use UUIDs; an account's built-in objects their ids): later inserts get ids above a digit id. */
  put(row: T): T {
    if (/^\d+$/.test(row.id)) this.nextId = Math.max(this.nextId, Number(row.id) + 1);
    const previous = this.rows.get(row.id);
    if (previous) this.unindex(previous);
    this.rows.set(row.id, row);
    this.index(row);
    return row;
  }

  /** Changes a stored row in place, keeping the key index in step. */
  update(row: T, changes: Partial<Omit<T, "id">>): T {
    this.unindex(row);
    Object.assign(row, changes);
    this.index(row);
    return row;
  }

  /** Rows whose options.keyOf is this key, in no particular order. */
  withKey(key: string): T[] {
    const ids = this.byKey.get(key);
    return ids ? [...ids].map((id) => this.rows.get(id)!) : [];
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
    const row = this.rows.get(id);
    if (row) this.unindex(row);
    return this.rows.delete(id);
  }

  /** Deletes every row the predicate holds for: what goes with a deleted object. */
  deleteWhere(predicate: (row: T) => boolean): void {
    for (const row of this.where(predicate)) this.delete(row.id);
  }

  /** Whether the table ever handed out this id, deleted rows included. */
  issued(id: string): boolean {
    return /^\d+$/.test(id) && Number(id) >= 1 && Number(id) < this.nextId;
  }

  get size(): number {
    return this.rows.size;
  }

  clear(): void {
    this.rows.clear();
    this.byKey.clear();
    this.nextId = 1;
  }

  snapshot(): TableSnapshot<T> {
    return { nextId: this.nextId, rows: this.all() };
  }

  restore(snapshot: TableSnapshot<T>): void {
    this.rows = new Map(snapshot.rows.map((row) => [row.id, row]));
    this.byKey.clear();
    for (const row of this.rows.values()) this.index(row);
    this.nextId = snapshot.nextId;
  }

  private index(row: T): void {
    if (!this.options.keyOf) return;
    const key = this.options.keyOf(row);
    const ids = this.byKey.get(key);
    if (ids) ids.add(row.id);
    else this.byKey.set(key, new Set([row.id]));
  }

  private unindex(row: T): void {
    if (!this.options.keyOf) return;
    const key = this.options.keyOf(row);
    const ids = this.byKey.get(key);
    if (!ids) return;
    ids.delete(row.id);
    if (ids.size === 0) this.byKey.delete(key);
  }
}

/** A to-one relation as the list the sideloader expects. */
export function listOf<T>(row: T | undefined): T[] {
  return row === undefined ? [] : [row];
}
