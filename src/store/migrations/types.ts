/** One schema migration. A leaf: the numbered migrations and the list of them both use it. */
export interface Migration {
  /** Strictly increasing, starting at 1; never renumber a released migration. */
  version: number;
  name: string;
  sql: string;
}
