// The composer's microphone: a tap starts the browser's speech recognition and the words appear in the
// message box as they are heard (interim ones too, replaced as they firm up), after whatever was
// already typed; a second tap stops. A failure (the microphone refused, nothing heard) is said in words
// in the composer's problem line. Loaded with its first render; the composer shows it only where the
// browser has the API (lazy.ts). Nothing typed is lost: an edit made while listening is kept, and
// what is heard next goes after it. Sending the message ends the dictation.
import { useEffect, useRef, useState } from "preact/hooks";
import { dictationProblem, withDictation } from "../../lib/speech-text";
import style from "./style.module.css";

/** What the app uses of SpeechRecognition (not in TypeScript's DOM types). */
interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  start(): void;
  stop(): void;
  abort(): void;
  onresult: ((event: { resultIndex: number; results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
}

/** The browser's speech recognition class (lazy.ts canDictate said there is one). */
function recognitionClass(): (new () => SpeechRecognitionLike) | undefined {
  const w = window as unknown as Record<string, (new () => SpeechRecognitionLike) | undefined>;
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

export type DictateProps = {
  /** The message box's text now. */
  text: string;
  onText: (text: string) => void;
  /** A sentence for the composer's problem line, or null to clear it. */
  onProblem: (problem: string | null) => void;
};

export function DictateButton({ text, onText, onProblem }: DictateProps) {
  const [listening, setListening] = useState(false);
  const recognition = useRef<SpeechRecognitionLike | null>(null);
  const latest = useRef(text);
  latest.current = text;
  // The text before this dictation, the first result that belongs to it, and what it last wrote.
  const session = useRef({ before: "", from: 0, written: "" });

  useEffect(() => () => recognition.current?.abort(), []);
  // The message was sent (the box emptied under it): this dictation is over.
  useEffect(() => {
    if (text === "" && session.current.written !== "") recognition.current?.stop();
  }, [text]);

  const start = () => {
    const Recognition = recognitionClass();
    if (!Recognition) return;
    const listener = new Recognition();
    listener.lang = navigator.language || "en-US";
    listener.continuous = true;
    listener.interimResults = true;
    session.current = { before: latest.current, from: 0, written: latest.current };
    listener.onresult = ({ resultIndex, results }) => {
      const s = session.current;
      // The user changed the box while listening: keep their text, add only what is heard from now on.
      if (latest.current !== s.written) Object.assign(s, { before: latest.current, from: resultIndex });
      const heard: string[] = [];
      for (let i = s.from; i < results.length; i++) heard.push(results[i]?.[0]?.transcript ?? "");
      s.written = withDictation(s.before, heard.join(" "));
      latest.current = s.written;
      onText(s.written);
    };
    listener.onerror = ({ error }) => {
      const problem = dictationProblem(error);
      if (problem) onProblem(problem);
    };
    listener.onend = () => {
      if (recognition.current === listener) recognition.current = null;
      setListening(false);
    };
    onProblem(null);
    try {
      listener.start();
      recognition.current = listener;
      setListening(true);
    } catch {
      onProblem("Dictation could not start. Try again, or type the message.");
    }
  };

  const label = listening ? "Stop dictation" : "Dictate";
  return (
    <button
      type="button"
      class={`${style.mic} ${listening ? style.listening : ""}`}
      onClick={() => (listening ? recognition.current?.stop() : start())}
      aria-label={label}
      title={label}
      data-testid="dictate"
      data-listening={listening ? "true" : "false"}
    >
      <svg width="1.15em" height="1.15em" viewBox="0 0 24 24" aria-hidden="true" class={style.icon}>
        <path d="M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zM5 11a7 7 0 0 0 14 0M12 18v3M8 21h8" />
      </svg>
    </button>
  );
}
