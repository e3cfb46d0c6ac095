// An <a> that navigates inside the app without a page load, yet still opens in a new tab on
// Ctrl/Cmd/middle click, because it is a real link with a real href.
import type { ComponentChildren } from "preact";
import { navigate } from "../../lib/router";

type Props = {
  href: string;
  class?: string;
  title?: string;
  id?: string;
  "data-testid"?: string;
  "aria-current"?: "page" | undefined;
  "aria-label"?: string;
  onDblClick?: (event: MouseEvent) => void;
  /** Any other data-* attributes (data-project-id, …). */
  [data: `data-${string}`]: string | undefined;
  children: ComponentChildren;
};

export function Link({ href, children, ...rest }: Props) {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
