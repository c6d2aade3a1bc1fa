import type { CrmContext } from "./context";
import type { Route } from "./router";
import { Table, type Row, type TableOptions } from "./store";

/**
 * A part of the CRM account, one file of resources/: the tables it owns, the routes it serves
 * and what its tables hold before anyone writes. The account is the list in modules.ts.
 */
export interface CrmModule<Declared extends TableDeclarations = TableDeclarations> {
  /** The tables it owns, under the names state files keep them by. */
  tables: Declared;
  /**
   * Its routes, in the order the service lists them, made once per account. crm.tables holds
   * every module's tables. A function whose return type is declared (or plainly Route[]): one
   * inferred from a body reading crm.tables would make the tables' type depend on itself.
   */
  routes?(crm: CrmContext): Route[];
  /** What its tables hold when the account starts, and again after a reset. */
  seed?(tables: TablesOf<Declared>): void;
  /** Takes up again what restored tables say is pending (the bulk import's queued batches). */
  restored?(crm: CrmContext): void;
}

/** A table a module declares: its row type and index, the table made anew for each account. */
type TableDeclaration<T extends Row> = () => Table<T>;

type TableDeclarations = Record<string, TableDeclaration<Row>>;

type TablesOf<Declared extends TableDeclarations> = { [name in keyof Declared]: ReturnType<Declared[name]> };

export function table<T extends Row>(options?: TableOptions<T>): TableDeclaration<T> {
  return () => new Table<T>(options);
}

export function crmModule<Declared extends TableDeclarations>(module: CrmModule<Declared>): CrmModule<Declared> {
  return module;
}

/** The tables of every module of the list, each by its name. */
export type TablesOfModules<Modules extends readonly CrmModule[]> = Modules extends readonly [
  CrmModule<infer Declared>,
  ...infer Rest extends readonly CrmModule[],
]
  ? TablesOf<Declared> & TablesOfModules<Rest>
  : unknown;

/** Each module's tables, made anew; two modules declaring one name is a mistake, refused. */
export function createTables<Modules extends readonly CrmModule[]>(modules: Modules): TablesOfModules<Modules> {
  const tables: Record<string, Table<Row>> = {};
  for (const module of modules) {
    for (const [name, declared] of Object.entries(module.tables)) {
      if (name in tables) throw new Error(`Two CRM modules declare the table ${name}`);
      tables[name] = declared();
    }
  }
  return tables as TablesOfModules<Modules>;
}
