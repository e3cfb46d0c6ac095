// Bindings of wrangler.toml and the variables `npm start` passes through.
interface Env {
  /** usernames, passkey ids, provider subjects → user and shard; invites; the audit (d1/shards.ts). */
  DIRECTORY: D1Database;
  /** Shard 0, named as the one database was before shards; then SHARD_1 … SHARD_<n-1> (d1/shards.ts reads them by name). */
  DB: D1Database;
  /** Shards taking no new accounts, comma-separated ("0,1"). */
  SHARDS_FULL?: string;
  CONVERSATION: DurableObjectNamespace<import("./durable-objects/conversation/conversation-object").ConversationObject>;
  ASSETS: Fetcher;
  /** Files users attach (d1/files.ts): `files/<user>/<id>` and its text beside it. */
  FILES: R2Bucket;
  /** The largest file one upload may be, in bytes (default 20 MiB), and a user's files together (default 500 MiB). */
  FILE_MAX_BYTES?: string;
  FILES_MAX_TOTAL_BYTES?: string;
  /** "true": the operator's model reads images (image parts); otherwise it gets an image's name. */
  OPENAI_IMAGE_INPUT?: string;
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  OPENAI_MODEL?: string;
  OPENAI_API_STYLE?: string;
  /** Seconds a model stream may stay silent before the call fails (default 60; fractions allowed). */
  OPENAI_STREAM_IDLE_SECONDS?: string;
  /** The model's context window in tokens (default 128000): no request is larger. */
  OPENAI_CONTEXT_WINDOW?: string;
  /** Prices per million tokens, for the token meter's estimated cost (input and output both needed). */
  OPENAI_PRICE_INPUT?: string;
  OPENAI_PRICE_CACHED_INPUT?: string;
  OPENAI_PRICE_OUTPUT?: string;
  /** The cap on one answer in tokens (default: a quarter of the window, at most 8192). */
  OPENAI_MAX_OUTPUT_TOKENS?: string;
  /** What the model picker calls the operator's provider (default: the base URL's host, or "OpenAI"). */
  OPENAI_PROVIDER_NAME?: string;
  /** "true": replay the model's reasoning with its earlier steps (servers that require it). */
  OPENAI_SEND_REASONING?: string;
  /** "off": users may not add their own model providers (Settings → Models). */
  USER_PROVIDERS?: string;
  /** Who may create an account: open, invite, approval or closed (worker/auth/signup-policy.ts; unset: approval, open on 127.0.0.1). */
  SIGNUP?: string;
  /**
   * Passkeys (worker/auth/passkey-ceremony.ts): the WebAuthn relying party's id (a domain: the app's host
   * or a parent of it), the origins whose passkey answers count (comma-separated), and the name
   * authenticators show. Unset: the host and origin each request came to, and "Oracle".
   */
  WEBAUTHN_RP_ID?: string;
  WEBAUTHN_ORIGINS?: string;
  WEBAUTHN_RP_NAME?: string;
  /** Usernames (comma-separated) that are admins whatever the database says. */
  ADMINS?: string;
  /**
   * Identity providers to sign in with (worker/auth/oidc-config.ts): their ids, comma-separated; each id's
   * OIDC_<ID>_ISSUER, _CLIENT_ID, _CLIENT_SECRET, _NAME, _SCOPES, _TYPE are read by name.
   */
  OIDC_PROVIDERS?: string;
  /** Sign-ups per client address (an IPv6 one by its /64) per hour; 0: no limit. Unset: 10. */
  SIGNUP_PER_HOUR?: string;
  /** The default quota on the operator's models per user (protocol/quota.ts); unset or empty: no limit. */
  QUOTA_DAILY_TOKENS?: string;
  QUOTA_MONTHLY_TOKENS?: string;
  QUOTA_DAILY_COST?: string;
  QUOTA_MONTHLY_COST?: string;
  /** Worker secret (32+ characters) from which the key sealing users' MCP secrets is derived. */
  SECRETS_KEY?: string;
  /**
   * "true" lets the Worker's outbound requests (MCP servers, model providers, web pages) reach loopback
   * (local development and tests; outbound/policy.ts); never set it in production. MCP_ALLOW_LOOPBACK is
   * its older name, still read.
   */
  ALLOW_LOOPBACK?: string;
  MCP_ALLOW_LOOPBACK?: string;
  /**
   * The https URL the Worker gives as its OAuth client id to authorization servers that take client ID
   * metadata documents (default: /api/oauth/client-metadata.json on its own origin, when that is https).
   */
  MCP_OAUTH_CLIENT_ID_URL?: string;
  /** Seconds one MCP tool call may take (default 30). */
  MCP_TOOL_TIMEOUT_SECONDS?: string;
  /**
   * Web push (core/vapid.ts): the operator's P-256 key pair, base64url (the public key uncompressed, the
   * private key the 32-byte scalar; `node scripts/vapid-keys.ts` makes one), and a mailto: or https:
   * contact for the push services. Without all three, push is not offered.
   */
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  /**
   * The operator's web search (outbound/web-search.ts): SEARCH_PROVIDER searxng, brave, tavily or exa;
   * SEARCH_URL the SearXNG instance (or another provider's API base); SEARCH_API_KEY the provider's key (a
   * Worker secret); SEARCH_PRICE what one search costs, for the quota's estimated cost.
   */
  SEARCH_PROVIDER?: string;
  SEARCH_URL?: string;
  SEARCH_API_KEY?: string;
  SEARCH_PRICE?: string;
  /**
   * web_fetch (outbound/web-page.ts): "off" and the agent reads no pages; the largest page in bytes
   * (default 5 MiB, decoded) and the seconds one read may take (default 15).
   */
  WEB_FETCH?: string;
  /** "off": no memory tool and no memories for anyone (docs/protocol.md "Projects, instructions and memory"). */
  MEMORY?: string;
  WEB_FETCH_MAX_BYTES?: string;
  WEB_FETCH_TIMEOUT_SECONDS?: string;
  /** "off": a turn cut short by a restart ends with an interrupt item instead of going on (default on). */
  TURN_RECOVERY?: string;
  /** Tests only: tools whose calls hold their result after their effect (fault-pauses.ts). Never set it. */
  FAULT_PAUSE_AFTER_TOOLS?: string;
}
declare namespace Cloudflare {
  interface Env extends globalThis.Env {}
  // Types `exports` from "cloudflare:workers" (tests call the Worker through it).
  interface GlobalProps {
    mainModule: typeof import("./worker/index");
    durableNamespaces: "ConversationObject";
  }
}
