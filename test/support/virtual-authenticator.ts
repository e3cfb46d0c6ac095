// A passkey device for a browser page: Chromium's virtual authenticator over the DevTools protocol (its
// WebAuthn domain), a platform authenticator that holds passkeys, verifies its user and is always present.
// Used by the passkey e2e tests and the screenshots.
import type { CDPSession, Page } from "playwright-core";

/** The page's DevTools session with WebAuthn on: add devices to it with addDevice. */
export async function webAuthn(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  return cdp;
}

/** A new device on `cdp`'s page; returns its id. */
export async function addDevice(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}
