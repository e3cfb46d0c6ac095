// The frame the Settings, Library, Notes and Tasks pages share: a <section> that scrolls by itself (the
// Shell renders the one <main> around it), a centred column, a back link, the page's <h1> and, under it,
// an optional line saying what the page is for. The page's own content follows.
import type { ComponentChildren } from "preact";
import { Link } from "../../ui/link";
import style from "./style.module.css";

type Back = { href: string; label: string; testid?: string };

type Props = {
  title: string;
  intro?: ComponentChildren;
  /** Where the link above the title leads: back to the chat unless said otherwise. */
  back?: Back;
  /** How wide the column may grow: 44rem (narrow), 48rem (medium) or 52rem (wide). */
  width?: "narrow" | "medium" | "wide";
  testid?: string;
  /** Any data-* attributes for the section. */
  [data: `data-${string}`]: string | undefined;
  children: ComponentChildren;
};

const TO_CHAT: Back = { href: "/", label: "Back to chat" };

export function PageFrame({ title, intro, back = TO_CHAT, width = "wide", testid, children, ...data }: Props) {
  return (
    <section class={style.page} data-testid={testid} {...data}>
      <div class={`${style.inner} ${style[width]}`}>
        <div class={style.top}>
          <Link href={back.href} class={style.back} data-testid={back.testid}>
            {`← ${back.label}`}
          </Link>
          <h1 class={style.title}>{title}</h1>
        </div>
        {intro !== undefined && <PageIntro>{intro}</PageIntro>}
        {children}
      </div>
    </section>
  );
}

/** The muted line under a page's title; PageFrame's `intro`, or placed by a page that shows it only sometimes. */
export function PageIntro({ children }: { children: ComponentChildren }) {
  return <p class={style.intro}>{children}</p>;
}

export { ListView } from "./list-view";
/** Classes the pages' own content shares: status lines, the primary button, an empty state, lists… */
export { style as pageStyle };
