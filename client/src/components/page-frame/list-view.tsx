// A list a Settings section loads (lib/use-list.ts): "Loading…", the failure in words, the words for an
// empty list, or the rows inside one <ul>. Tokens, passkeys, sessions and shared links show theirs so.
import type { ComponentChildren } from "preact";
import type { ListState } from "../../lib/use-list";
import style from "./style.module.css";

type Props<T> = {
  list: ListState<T>;
  /** What an empty list says (e.g. "No passkeys yet."). */
  empty: ComponentChildren;
  /** data-testid of the empty words and of the <ul>. */
  emptyTestId: string;
  listTestId: string;
  children: (item: T) => ComponentChildren;
};

export function ListView<T>({ list, empty, emptyTestId, listTestId, children }: Props<T>) {
  if (list.status === "loading") return <p class={style.muted}>Loading…</p>;
  if (list.status === "failed")
    return (
      <p class={style.statusError} role="alert">
        {list.message}
      </p>
    );
  if (!list.items.length)
    return (
      <p class={style.empty} data-testid={emptyTestId}>
        {empty}
      </p>
    );
  return (
    <ul class={style.list} data-testid={listTestId}>
      {list.items.map(children)}
    </ul>
  );
}
