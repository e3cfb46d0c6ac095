// The few types of `oidc-provider` (v9 ships none, and @types/oidc-provider is not installed) that
// test/support/oidc-provider.ts uses.
declare module "oidc-provider" {
  import type { Server } from "node:http";

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface KoaContextWithOIDC {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      params?: Record<string, unknown>;
      result?: { consent?: { grantId?: string } };
      provider: {
        Grant: {
          new (init: { clientId: string; accountId: string }): Grant;
          find(id: string): Promise<Grant | undefined>;
        };
      };
    };
  }

  export interface Configuration {
    clients: Record<string, unknown>[];
    pkce?: { required?: () => boolean };
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: { keys: string[] };
    claims?: Record<string, string[]>;
    findAccount?: (
      ctx: unknown,
      id: string,
    ) => { accountId: string; claims: () => Record<string, unknown> } | undefined;
    loadExistingGrant?: (ctx: KoaContextWithOIDC) => Promise<Grant | undefined>;
    ttl?: Record<string, number>;
    features?: Record<string, { enabled: boolean }>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    on(event: string, listener: (...args: never[]) => void): this;
    listen(port: number, host: string): Server;
  }
}
