import type { CrmRequest } from "./api";
import { selectPage, type ListRules, type Page } from "./collections";
import type { Row } from "./store";

/** Some resources look different in a collection than alone (accounts gain counts and links). */
export type View = "list" | "single";

export interface Relation<T extends Row = Row> {
  /** Plural name of the related kind, which is also its sideloaded collection name. */
  kind: string;
  /** To-many relations list the related ids on the resource when sideloaded. */
  many: boolean;
  related(row: T): Row[];
}

/** A resource type: its envelope member names, how it is presented, what it can sideload. */
export interface Kind<T extends Row = Row> {
  singular: string;
  plural: string;
  present(row: T, req: CrmRequest, view: View): Record<string, unknown>;
  relations?: Record<string, Relation<T>>;
}

export interface ListOptions<T> extends ListRules<T> {
  /** The reference shows meta.total as a digit string for most resources, a number for custom objects. */
  totalAsNumber?: boolean;
  /** Members added to meta besides total, e.g. the page's count, limit and offset. */
  meta?: (page: Page<T>) => Record<string, unknown>;
  /** No meta at all, as the custom-field definition list answers (REAL-WORLD.md): only a short page ends a walk. */
  withoutMeta?: boolean;
}

export type Document = Record<string, unknown>;

export class KindRegistry {
  private readonly kinds = new Map<string, Kind>();

  register<T extends Row>(kind: Kind<T>): Kind<T> {
    this.kinds.set(kind.plural, kind as unknown as Kind);
    return kind;
  }

  get(plural: string): Kind {
    const kind = this.kinds.get(plural);
    if (!kind) throw new Error(`kind ${plural} is not registered`);
    return kind;
  }

  /** {<singular>: resource} plus any sideloaded collections. */
  one<T extends Row>(req: CrmRequest, kind: Kind<T>, row: T): Document {
    const presented = kind.present(row, req, "single");
    const document: Document = { [kind.singular]: presented };
    this.sideload(req, kind as unknown as Kind, [[row, presented]], document);
    return document;
  }

  /** {<plural>: [...], meta: {total, ...}} for one page of rows, plus sideloaded collections. */
  list<T extends Row>(req: CrmRequest, kind: Kind<T>, rows: T[], options: ListOptions<T> = {}): Document {
    const page = selectPage(req, rows, options);
    const pairs = page.rows.map((row): [Row, Document] => [row, kind.present(row, req, "list")]);
    const total = options.totalAsNumber ? page.total : String(page.total);
    const document: Document = { [kind.plural]: pairs.map(([, presented]) => presented) };
    this.sideload(req, kind as unknown as Kind, pairs, document);
    if (!options.withoutMeta) document.meta = { total, ...options.meta?.(page) };
    return document;
  }

  /** Where a to-one link leads: {<singular>: the related resource}, null when it is gone. */
  relatedOne(req: CrmRequest, plural: string, row: Row | undefined): Document {
    const kind = this.get(plural);
    return { [kind.singular]: row ? kind.present(row, req, "single") : null };
  }

  /** Where a to-many link leads: {<plural>: the related resources, as a list shows them}. */
  relatedMany(req: CrmRequest, plural: string, rows: Row[]): Document {
    const kind = this.get(plural);
    return { [plural]: rows.map((row) => kind.present(row, req, "list")) };
  }

  /**
   * include=a,b.c: each named relation adds a top-level collection of the related resources,
   * and to-many relations list the related ids on each resource. Unknown names are ignored.
   */
  private sideload(req: CrmRequest, kind: Kind, rows: Array<[Row, Document]>, document: Document): void {
    const include = req.query.get("include");
    if (!include) return;
    const presentedByRow = new Map<Row, Document>(rows);
    const included = new Map<string, Map<string, Document>>();
    const walk = (from: Kind, fromRows: Row[], path: string[]): void => {
      const relation = from.relations?.[path[0]];
      const target = relation && this.kinds.get(relation.kind);
      if (!relation || !target) return;
      const collection = included.get(target.plural) ?? new Map<string, Document>();
      included.set(target.plural, collection);
      const reached = new Map<string, Row>();
      for (const row of fromRows) {
        const related = relation.related(row);
        if (relation.many) presentedByRow.get(row)![path[0]] = related.map((r) => r.id);
        for (const relatedRow of related) reached.set(relatedRow.id, relatedRow);
      }
      for (const [id, row] of reached) {
        if (!collection.has(id)) {
          const presented = presentedByRow.get(row) ?? target.present(row, req, "list");
          presentedByRow.set(row, presented);
          collection.set(id, presented);
        }
      }
      if (path.length > 1) walk(target, [...reached.values()], path.slice(1));
    };
    for (const path of include
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean)) {
      walk(
        kind,
        rows.map(([row]) => row),
        path.split("."),
      );
    }
    for (const [plural, collection] of included) {
      // A sideload of the listed kind itself adds nothing the main collection lacks.
      if (!(plural in document)) document[plural] = [...collection.values()];
    }
  }
}
