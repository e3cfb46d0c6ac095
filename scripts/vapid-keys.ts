// `node scripts/vapid-keys.ts`: a new VAPID key pair for web push (core/vapid.ts), printed as the
// variables the Worker reads. Set them as Worker secrets (`wrangler secret put VAPID_PRIVATE_KEY`…) or in
// the shell `npm start` runs from, with VAPID_SUBJECT (mailto: or https:). Keep the pair: browsers
// subscribed with the public key stop getting notifications when it changes.
export {};

const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"])) as CryptoKeyPair;
const point = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
const { d } = await crypto.subtle.exportKey("jwk", pair.privateKey);
console.log(`VAPID_PUBLIC_KEY=${Buffer.from(point).toString("base64url")}`);
console.log(`VAPID_PRIVATE_KEY=${d}`);
console.log("VAPID_SUBJECT=mailto:you@example.com");
