// Where webhooks may go: the address classifier, the URL rules applied when an endpoint is saved, and the check of
// resolved addresses at delivery.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isPublicAddress, resolveTarget, urlProblem } from "@/lib/webhooks/address";
import { send } from "@/lib/webhooks/sender";
import { spyOnLog } from "../support/log";

afterEach(() => vi.unstubAllEnvs());

describe("isPublicAddress", () => {
  it.each([
    "0.0.0.0",
    "10.0.0.1",
    "10.255.255.255",
    "100.64.0.1", // CGNAT
    "100.127.255.254",
    "127.0.0.1",
    "127.1.2.3",
    "169.254.169.254", // cloud metadata
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.8",
    "192.0.2.1",
    "192.31.196.1", // AS112
    "192.52.193.1", // AMT
    "192.175.48.1", // AS112 direct delegation
    "192.168.1.1",
    "198.18.0.1",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "::ffff:127.0.0.1", // IPv4-mapped
    "::ffff:8.8.8.8", // mapped, even of a public address
    "::ffff:7f00:1",
    "::127.0.0.1", // IPv4-compatible
    "64:ff9b::a00:1", // NAT64
    "100::1",
    "2001:db8::1",
    "2001::1", // Teredo
    "2001:20::1", // ORCHIDv2
    "2620:4f:8000::1", // AS112 direct delegation
    "3fff::1", // documentation (RFC 9637)
    "3fff:fff:ffff::1",
    "5f00::1", // SRv6 SIDs
    "100:0:0:1::1", // dummy prefix
    "2002:7f00:1::1", // 6to4
    "fc00::1",
    "fd12:3456::1", // unique local
    "fe80::1", // link-local
    "fe80::1%eth0",
    "fec0::1",
    "ff02::1",
    "not an address",
    "",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "100.63.255.255",
    "100.128.0.1",
    "172.15.255.255",
    "172.32.0.1",
    "192.169.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "3ffe::1", // just below 3fff::/20
    "3fff:1000::1", // just past it
    "2620:4f:8001::1",
    "[2606:4700:4700::1111]",
  ])("accepts %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe("urlProblem (saving an endpoint)", () => {
  it("accepts https on a public host or address", () => {
    expect(urlProblem("https://hooks.example.com/in", false)).toBeNull();
    expect(urlProblem("https://8.8.8.8:8443/in?x=1", false)).toBeNull();
    expect(urlProblem("https://[2606:4700:4700::1111]/in", false)).toBeNull();
  });

  it.each([
    ["not a url", "valid URL"],
    ["http://hooks.example.com/in", "https"],
    ["ftp://hooks.example.com/in", "https"],
    ["https://user:pass@hooks.example.com/in", "user name"],
    ["https://hooks.example.com/in#frag", "fragment"],
    ["https://127.0.0.1/in", "public address"],
    ["https://0x7f.1/in", "public address"], // the URL parser reads this as 127.0.0.1
    ["https://2130706433/in", "public address"], // and this
    ["https://10.1.2.3/in", "public address"],
    ["https://169.254.169.254/latest/meta-data", "public address"],
    ["https://[::1]/in", "public address"],
    ["https://[::ffff:127.0.0.1]/in", "public address"],
    ["https://[fd00::1]/in", "public address"],
    ["https://localhost/in", "public host"],
    ["https://api.localhost/in", "public host"],
    ["https://metadata.google.internal/x", "public host"],
    ["https://printer.local/in", "public host"],
    ["https://intranet/in", "public host"],
  ])("refuses %s", (url, words) => {
    expect(urlProblem(url, false)).toContain(words);
  });

  it("allows http and private targets with WEBHOOKS_ALLOW_PRIVATE=true, and reads it at each call", () => {
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
    expect(urlProblem("http://127.0.0.1:3000/in")).toBeNull();
    expect(urlProblem("http://localhost/in")).toBeNull();
    vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "false");
    expect(urlProblem("http://127.0.0.1:3000/in")).not.toBeNull();
  });
});

describe("resolveTarget (at delivery)", () => {
  // The refusal's address goes to the server log only.
  let warned: ReturnType<typeof spyOnLog>;
  beforeEach(() => {
    warned = spyOnLog("warn");
  });
  afterEach(() => vi.restoreAllMocks());

  const resolvingTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it("pins a public address the name resolves to", async () => {
    const target = await resolveTarget("https://hooks.example.com/in", {
      allowPrivate: false,
      resolve: resolvingTo("93.184.216.34"),
    });
    expect(target).toMatchObject({ address: "93.184.216.34", family: 4 });
  });

  it.each([["127.0.0.1"], ["10.0.0.5"], ["169.254.169.254"], ["::1"], ["::ffff:10.0.0.1"], ["fd00::2"], ["3fff::5"]])(
    "refuses a name that resolves to %s without naming it, logging it instead",
    async (address) => {
      const refusal = resolveTarget("https://hooks.example.com/in", {
        allowPrivate: false,
        resolve: resolvingTo(address),
      });
      await expect(refusal).rejects.toThrow("Refused target: hooks.example.com resolves to a non-public address.");
      expect(warned).toHaveBeenCalledWith(expect.stringContaining(`resolves to ${address},`));
    },
  );

  it("refuses a name when any of its addresses is private (a resolver could hand out either)", async () => {
    await expect(
      resolveTarget("https://hooks.example.com/in", {
        allowPrivate: false,
        resolve: resolvingTo("93.184.216.34", "10.0.0.1"),
      }),
    ).rejects.toThrow(/non-public address\.$/);
  });

  it("a delivery to a name resolving to 127.0.0.1 never connects", async () => {
    const resolve = vi.fn(resolvingTo("127.0.0.1"));
    const result = await send("https://hooks.example.com/in", {}, "{}", { allowPrivate: false, resolve });
    expect(resolve).toHaveBeenCalledWith("hooks.example.com");
    expect(result.status).toBeUndefined();
    expect(result.error).toBe("Refused target: hooks.example.com resolves to a non-public address.");
  });

  it("a connection that fails is described by its code, not by the address it went to", async () => {
    const result = await send("http://127.0.0.1:9/in", {}, "{}", { allowPrivate: true });
    expect(result.error).toBe("Connection failed (ECONNREFUSED).");
    expect(warned).toHaveBeenCalledWith(expect.stringContaining("127.0.0.1:9"));
  });

  it("the system resolver's answer for localhost is refused too", async () => {
    // The form check refuses `localhost` before any lookup; a name of the form of a public one that resolves to
    // loopback is refused after the lookup (the injected resolvers above stand in for DNS, which is offline here).
    const result = await send("https://localhost/in", {}, "{}", { allowPrivate: false });
    expect(result.error).toMatch(/Refused target/);
  });
});
