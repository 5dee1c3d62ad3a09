// The allowed-root rule on real folders and symlinks in a temp dir: the whole disk,
// system folders (as typed and through a symlink), SSH key folders and Trainyard's
// own home are refused with a reason; a plain data folder is allowed.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isWithin, rootRefusal, type RootRuleContext } from "./root-rules";

const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "ty-root-rules-")));
const userHome = path.join(base, "user");
const trainyardHome = path.join(base, "trainyard-home");
const data = path.join(base, "data");
for (const d of [userHome, path.join(userHome, ".ssh", "keys"), path.join(trainyardHome, "datasets"), data]) mkdirSync(d, { recursive: true });
symlinkSync("/etc", path.join(data, "etc-link"));
symlinkSync(path.join(userHome, ".ssh"), path.join(base, "keys-link"));
symlinkSync(path.join(trainyardHome, "datasets"), path.join(base, "store-link"));
const ctx: RootRuleContext = { trainyardHome, userHome };

describe("allowed-root rule", () => {
  it("allows a plain data folder and the user's home folder (which holds ~/.ssh)", () => {
    expect(rootRefusal(data, ctx)).toBeNull();
    expect(rootRefusal(userHome, ctx)).toBeNull();
    expect(rootRefusal("/srv/datasets", ctx)).toBeNull();
    // Only /var/lib, not every name that starts with it.
    expect(rootRefusal("/var/library", ctx)).toBeNull();
  });

  it("refuses the whole disk", () => {
    expect(rootRefusal("/", ctx)).toMatch(/whole disk/);
  });

  it.each(["/etc", "/etc/ssl", "/proc", "/proc/self", "/sys/kernel", "/dev", "/boot", "/run/secrets", "/usr/local/share", "/bin", "/sbin", "/lib", "/var/lib/docker"])(
    "refuses the system folder %s",
    (root) => {
      expect(rootRefusal(root, ctx)).toMatch(/system folder/);
    },
  );

  it("refuses a folder that contains a system folder", () => {
    expect(rootRefusal("/var", ctx)).toMatch(/contains the system folder \/var\/lib/);
  });

  it("judges a symlink by where it leads", () => {
    expect(rootRefusal(path.join(data, "etc-link"), ctx)).toMatch(/system folder \/etc.*it leads to \/etc/);
    expect(rootRefusal(path.join(base, "keys-link"), ctx)).toMatch(/credentials folder \(\.ssh\)/);
    expect(rootRefusal(path.join(base, "store-link"), ctx)).toMatch(/inside Trainyard's own home/);
  });

  it("refuses the user's ~/.ssh, anything inside it, and any .ssh folder", () => {
    expect(rootRefusal(path.join(userHome, ".ssh"), ctx)).toMatch(/credentials folder \(\.ssh\).*keys or passwords/);
    expect(rootRefusal(path.join(userHome, ".ssh", "keys"), ctx)).toMatch(/credentials folder \(\.ssh\)/);
    expect(rootRefusal("/home/someone-else/.ssh", ctx)).toMatch(/credentials folder \(\.ssh\)/);
  });

  it("refuses the other credential folders by the same rule, and not the home folder that holds them", () => {
    for (const place of [".aws", ".gnupg", ".docker", ".kube", ".config/gcloud", ".password-store", ".azure", ".local/share/keyrings"]) {
      expect(rootRefusal(path.join(userHome, place), ctx), place).toMatch(new RegExp(`credentials folder \\(${place.replace(/\./g, "\\.")}\\)`));
      expect(rootRefusal(path.join("/srv/other", place, "inner"), ctx), place).toMatch(/credentials folder/);
    }
    expect(rootRefusal(path.join(userHome, ".config"), ctx)).toBeNull();
  });

  it("refuses Trainyard's own home, a folder inside it and a folder that contains it", () => {
    expect(rootRefusal(trainyardHome, ctx)).toMatch(/inside Trainyard's own home/);
    expect(rootRefusal(path.join(trainyardHome, "datasets"), ctx)).toMatch(/inside Trainyard's own home/);
    expect(rootRefusal(base, ctx)).toMatch(/contains Trainyard's own home.*TRAINYARD_HOME/);
  });

  it("compares whole path segments", () => {
    expect(isWithin("/etc", "/etc")).toBe(true);
    expect(isWithin("/etc/x", "/etc")).toBe(true);
    expect(isWithin("/etcetera", "/etc")).toBe(false);
    expect(isWithin("/", "/etc")).toBe(false);
  });
});
