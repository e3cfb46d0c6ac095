// Any JSON-ish value, pretty-printed in a <pre>; strings are shown as they are rather than quoted.
import style from "./style.module.css";

export function formatJson(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

export function JsonBlock({ value, label }: { value: unknown; label?: string }) {
  return (
    <div class={style.block}>
      {label && <div class={style.label}>{label}</div>}
      <pre class={style.pre}>{formatJson(value)}</pre>
    </div>
  );
}
