// Structured notification data in human-readable form (seed 000 FR-025): arrays of like objects as a
// table (column headers = keys), objects as key/value lists, everything else as text. Depth is capped;
// deeper values fall back to compact JSON so a hostile payload cannot blow up the page. Text nodes
// only: nothing in the data can become markup.
import style from "./style.module.css";

const MAX_DEPTH = 4;

type Row = Record<string, unknown>;

function isRecord(value: unknown): value is Row {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  if (isScalar(value)) return String(value);
  if (Array.isArray(value) && value.every(isScalar)) return value.map(scalarText).join(", ");
  return JSON.stringify(value) ?? String(value);
}

/** What fits in a table cell: a scalar, or a short list of scalars (shown comma-separated). */
function isCell(value: unknown): boolean {
  return isScalar(value) || (Array.isArray(value) && value.every(isScalar));
}

/** A table fits when every item is an object whose values all fit in a cell. */
function tableColumns(items: unknown[]): string[] | null {
  if (items.length === 0 || !items.every(isRecord)) return null;
  const rows = items as Row[];
  if (!rows.every((row) => Object.values(row).every(isCell))) return null;
  return [...new Set(rows.flatMap((row) => Object.keys(row)))];
}

function Table({ rows, columns }: { rows: Row[]; columns: string[] }) {
  return (
    <div class={style.tableWrap}>
      <table class={style.table} data-testid="notification-table">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              {columns.map((column) => (
                <td key={column}>{scalarText(row[column])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function StructuredData({ value, depth = 0 }: { value: unknown; depth?: number }) {
  if (isScalar(value) || value === undefined) return <span class={style.scalar}>{scalarText(value)}</span>;
  if (depth >= MAX_DEPTH) return <code>{scalarText(value)}</code>;
  if (Array.isArray(value)) {
    const columns = tableColumns(value);
    if (columns) return <Table rows={value as Row[]} columns={columns} />;
    if (value.length === 0) return <span class={style.scalar}>(none)</span>;
    return (
      <ol class={style.list}>
        {value.map((item, index) => (
          <li key={index}>
            <StructuredData value={item} depth={depth + 1} />
          </li>
        ))}
      </ol>
    );
  }
  const entries = Object.entries(value as Row);
  if (entries.length === 0) return <span class={style.scalar}>(empty)</span>;
  return (
    <dl class={style.pairs} data-testid={depth === 0 ? "notification-fields" : undefined}>
      {entries.map(([key, item]) => (
        <div key={key} class={style.pair}>
          <dt>{key}</dt>
          <dd>
            <StructuredData value={item} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
