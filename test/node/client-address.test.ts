// The address sign-in limits count a client by (worker/auth/client-address.ts).
import { describe, expect, it } from "vitest";
import { clientAddress } from "../../worker/auth/client-address";

describe("clientAddress", () => {
  it("keeps IPv4 as it is and reduces IPv6 to its /64, whatever its spelling", () => {
    expect(clientAddress("203.0.113.9")).toBe("203.0.113.9");
    expect(clientAddress("2001:db8:7:9::1")).toBe("2001:db8:7:9::/64");
    expect(clientAddress("2001:0DB8:0007:0009:ffff:1:2:3")).toBe("2001:db8:7:9::/64");
    expect(clientAddress("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(clientAddress("local")).toBe("local");
  });
});
