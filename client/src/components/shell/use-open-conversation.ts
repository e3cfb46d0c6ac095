// "New conversation", or a first message from home: open (or reuse) one and go there. One at a time; a
// first message that a failed create would lose is given back (`unsent`) for home to put back in its
// composer. `opened` counts the opens, so the list can scroll to the row.
import { useCallback, useRef, useState } from "preact/hooks";
import type { ModelRef } from "../../../../protocol";
import { queueFirstMessage } from "../../lib/outbox";
import { navigate } from "../../lib/router";
import type { useConversations } from "../../lib/use-conversations";

type List = Pick<ReturnType<typeof useConversations>, "create" | "chooseModel">;

export function useOpenConversation({ create, chooseModel }: List) {
  const [creating, setCreating] = useState(false);
  const [opened, setOpened] = useState(0);
  const [unsent, setUnsent] = useState<string | null>(null);
  const creatingRef = useRef(false);

  const open = useCallback(
    async (content?: string, model?: ModelRef | null) => {
      if (creatingRef.current) return;
      creatingRef.current = true;
      setCreating(true);
      const conversation = await create();
      creatingRef.current = false;
      setCreating(false);
      // A first message must not be lost with a failed create: home gives it back to the composer.
      setUnsent(!conversation && content ? content : null);
      if (!conversation) return;
      // The model picked on the home page, before the first message is sent (a refusal leaves the default).
      if (model) await chooseModel(conversation.id, model);
      if (content) queueFirstMessage(conversation.id, content);
      const path = `/c/${encodeURIComponent(conversation.id)}`;
      const already = location.pathname === path;
      setOpened((n) => n + 1);
      navigate(path);
      // Reusing the chat already open: nothing re-mounts, so put the cursor in its composer here.
      if (already) document.querySelector<HTMLElement>("#main [data-testid=composer-input]")?.focus();
    },
    [create, chooseModel],
  );

  return { open, creating, opened, unsent, setUnsent };
}
