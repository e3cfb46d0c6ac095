// core/base64.ts: what salts, hashes, sealed secrets and link ids are written with.
import { describe, expect, it } from "vitest";
import { fromBase64, toBase64, toBase64Url } from "../../core/base64";

describe("base64", () => {
  it("round-trips a 1 MiB value (spreading its bytes as arguments overflowed the stack)", () => {
    const bytes = new Uint8Array(1 << 20);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) & 0xff;
    const text = toBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString("base64"));
    expect(Buffer.from(fromBase64(text)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("writes base64url without padding, as links and OAuth state carry it", () => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0xbf, 0x01]);
    expect(toBase64(bytes)).toBe("+/+/AQ==");
    expect(toBase64Url(bytes)).toBe("-_-_AQ");
    expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString("base64url"));
  });
});
