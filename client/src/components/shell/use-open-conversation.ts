// A new chat and its first message. "New conversation" (and Ctrl/⌘+Shift+O) only goes home, to the
// examples and an empty composer: a conversation is made when its first message is sent from there, so
// no empty row is left in the sidebar. Sending makes it (one at a time), queues the text for the chat
// (lib/outbox.ts) and goes there; a first message that a failed create would lose is given back
// (`unsent`) for home to put back in its composer.
import { useCallback, useRef, useState } from "preact/hooks";
import type { Attachment, ModelRef } from "../../../../protocol";
import { queueFirstMessage } from "../../lib/outbox";
import { navigate } from "../../lib/router";
import type { useConversations } from "../../lib/use-conversations";

/** A first message (and its files) given back to home, and why its conversation could not be made. */
export type Unsent = { content: string; problem: string; files?: Attachment[] };

type List = Pick<ReturnType<typeof useConversations>, "create" | "chooseModel">;

/** Home, with the cursor in its composer (also when home is already open: nothing re-mounts then). */
export function startNewChat(): void {
  navigate("/");
  // After the render that shows home and closes the drawer (the page behind an open one is inert).
  requestAnimationFrame(() => document.querySelector<HTMLElement>("#main [data-testid=composer-input]")?.focus());
}

export function useOpenConversation({ create, chooseModel }: List) {
  const [creating, setCreating] = useState(false);
  const [unsent, setUnsent] = useState<Unsent | null>(null);
  const creatingRef = useRef(false);

  const open = useCallback(
    async (content: string, model: ModelRef | null, files: Attachment[] = []) => {
      if (creatingRef.current) return;
      creatingRef.current = true;
      setCreating(true);
      // A message of files only is named, until the server names it, by its first file.
      const conversation = await create(content || (files[0]?.name ?? ""));
      creatingRef.current = false;
      setCreating(false);
      // A first message must not be lost with a failed create: home gives it back to the composer,
      // with the server's reason.
      if ("refused" in conversation) {
        setUnsent({ content, problem: conversation.refused, files });
        return;
      }
      setUnsent(null);
      // The model picked on the home page, before the first message is sent (a refusal leaves the default).
      if (model) await chooseModel(conversation.id, model);
      queueFirstMessage(conversation.id, content, files);
      navigate(`/c/${encodeURIComponent(conversation.id)}`);
    },
    [create, chooseModel],
  );

  return { open, creating, unsent, setUnsent };
}
