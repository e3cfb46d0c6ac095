// The one "something is running" indicator: turn status, tool and delegate cards, subagent panels.
import style from "./style.module.css";

type Props = { small?: boolean; "data-testid"?: string };

export function Spinner({ small, ...rest }: Props) {
  return <span class={small ? `${style.spinner} ${style.small}` : style.spinner} aria-hidden="true" {...rest} />;
}
