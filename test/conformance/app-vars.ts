// The --vars an app runs the MCP conformance suite with (test/conformance/): the suite's fixed client ID
// metadata URL as the Worker's OAuth client id (MCP_OAUTH_CLIENT_ID_URL, the operator's setting), as the
// suite's own reference client uses it. auth/basic-cimd checks that the authorization request carries
// exactly that id; a Worker on plain http has no https id of its own and would register instead. It
// changes nothing against an authorization server that does not take metadata documents.
export const CONFORMANCE_APP_VARS: Record<string, string> = {
  MCP_OAUTH_CLIENT_ID_URL: "https://conformance-test.local/client-metadata.json",
};
