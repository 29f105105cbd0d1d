import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { heloNameProblem, machineHeloName } from "./helo-name.ts";

describe("the name of the relay's greeting", () => {
  it("is a host name or an address literal, never text that could change the SMTP conversation", () => {
    for (const name of ["mail.example.com", "vm", "MAIL.example.com", "[192.0.2.1]", "[IPv6:2001:db8::1]"]) {
      expect(heloNameProblem(name), name).toBeNull();
    }
    for (const name of ["", "a_b.example.com", "a..example.com", "-a.example.com", "[300.1.1.1]", "[2001:db8::1]"]) {
      expect(heloNameProblem(name), name).toContain("is not a host name");
    }
    expect(heloNameProblem("mail.example.com\r\nRSET")).not.toBeNull();
    expect(heloNameProblem(`${"a".repeat(63)}.`.repeat(4).slice(0, 255))).not.toBeNull();
  });

  it("defaults to the machine's host name, an address in brackets, or loopback for a name SMTP cannot take", () => {
    expect(machineHeloName("Build-7.example.com")).toBe("build-7.example.com");
    expect(machineHeloName("vm")).toBe("vm");
    expect(machineHeloName("192.0.2.7")).toBe("[192.0.2.7]");
    expect(machineHeloName("my_host")).toBe("[127.0.0.1]");
    expect(machineHeloName()).toBe(machineHeloName(hostname()));
  });
});
