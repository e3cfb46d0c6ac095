// WebSocket close codes the server uses beyond the standard ones (docs/protocol.md "Identity").

/** The session or token that opened the socket was revoked (logout, a deleted token): do not reconnect. */
export const REVOKED_CLOSE_CODE = 4401;
