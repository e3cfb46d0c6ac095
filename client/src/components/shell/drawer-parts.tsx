// What the Shell shows beside the conversations: the pages and the user's name with Log out at the foot
// of the drawer, and the toast that can undo a delete.
import type { User } from "../../../../protocol";
import { navigate } from "../../lib/router";
import { Link } from "../../ui/link";
import { pagesFor } from "../header";
import style from "./style.module.css";

export function DrawerPages({ user, onLogOut }: { user: User; onLogOut: () => void }) {
  return (
    <nav class={style.drawerPages} aria-label="Pages">
      {pagesFor(user).map((p) => (
        <Link key={p.href} href={p.href} class={style.drawerLink} data-testid={`drawer-${p.testid}`}>
          <span aria-hidden="true">{p.icon}</span> {p.label}
        </Link>
      ))}
      <div class={style.drawerUser}>
        <span data-testid="drawer-current-user">{user.username}</span>
        <button type="button" onClick={onLogOut} data-testid="drawer-logout">
          Log out
        </button>
      </div>
    </nav>
  );
}

/**
 * "Deleted “title” · Undo", for as long as the delete can still be undone: at the top of the page, under
 * the header (over the chat's title, away from the composer's controls), or at the foot of the open
 * drawer on a phone (`inDrawer`, inside its focus trap, covering none of it).
 */
export function UndoToast({ title, onUndo, inDrawer }: { title: string; onUndo: () => void; inDrawer: boolean }) {
  return (
    <div class={inDrawer ? style.toastInDrawer : style.toast} role="status" data-testid="delete-toast">
      <span class={style.toastText}>Deleted “{title || "Untitled conversation"}”</span>
      <span aria-hidden="true">·</span>
      <button type="button" class={style.undo} onClick={onUndo} data-testid="undo-delete">
        Undo
      </button>
    </div>
  );
}

/** After Undo: back to the conversation if it was the one open, and the focus on its row. */
export function returnToUndone(id: string | undefined, wasOpen: string | null) {
  if (id && id === wasOpen && location.pathname === "/") navigate(`/c/${encodeURIComponent(id)}`);
  setTimeout(() => {
    if (!id) return;
    const selector = `[data-testid=conversation-item][data-id=${JSON.stringify(id)}] a`;
    document.querySelector<HTMLElement>(selector)?.focus();
  });
}
