// Bindings of wrangler.toml and the variables `npm start` passes through.
interface Env {
  DB: D1Database;
  CONVERSATION: DurableObjectNamespace<import("./durable-objects/conversation").ConversationObject>;
  ASSETS: Fetcher;
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  OPENAI_MODEL?: string;
  OPENAI_API_STYLE?: string;
  /** Seconds a model stream may stay silent before the call fails (default 60; fractions allowed). */
  OPENAI_STREAM_IDLE_SECONDS?: string;
}
declare namespace Cloudflare {
  interface Env extends globalThis.Env {}
  // Types `exports` from "cloudflare:workers" (tests call the Worker through it).
  interface GlobalProps {
    mainModule: typeof import("./worker/index");
    durableNamespaces: "ConversationObject";
  }
}
