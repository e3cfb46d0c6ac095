// Voice, one chunk (lazy.ts loads it): the composer's microphone and an answer's "Read aloud".
import { DictateButton, type DictateProps } from "./dictate-button";
import { ReadAloudButton } from "./read-aloud-button";

export type VoiceProps = ({ kind: "dictate" } & DictateProps) | { kind: "read-aloud"; text: string };

export function Voice(props: VoiceProps) {
  return props.kind === "dictate" ? <DictateButton {...props} /> : <ReadAloudButton text={props.text} />;
}
