// What the first load holds of voice: whether this browser can take dictation (SpeechRecognition,
// prefixed in Chrome and Safari) and read aloud (speechSynthesis), and one lazy part for both buttons,
// so the voice chunk loads with the first button shown, and never where the browser has neither API.
import { lazyPart } from "../shell/lazy";

export const canDictate = (): boolean => "SpeechRecognition" in window || "webkitSpeechRecognition" in window;

export const canReadAloud = (): boolean => "speechSynthesis" in window;

export const Voice = lazyPart(() => import("./index").then((m) => m.Voice));
