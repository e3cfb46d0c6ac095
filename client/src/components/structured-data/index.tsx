// Structured notification data in human-readable form (seed 000 FR-025): arrays of like objects as a
// table, objects as key/value lists, everything else as text. Depth is capped; deeper values fall back
// to compact JSON so a hostile payload cannot blow up the page.
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
  return JSON.stringify(value);
}

/** A table fits when every item is an object whose values are all scalars. */
function tableColumns(items: unknown[]): string[] | null {
  if (items.length === 0 || !items.every(isRecord)) return null;
  const rows = items as Row[];
  if (!rows.every((row) => Object.values(row).every(isScalar))) return null;
  return [...new Set(rows.flatMap((row) => Object.keys(row)))];
}

function Table({ rows, columns }: { rows: Row[]; columns: string[] }) {
  return (
    <div class={style.tableWrap}>
      <table class={style.table}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column}>{column}</th>
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
  return (
    <dl class={style.pairs}>
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
