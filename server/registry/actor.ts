/** Who an alias event names: the principal the request guard let in. */
import type { Principal } from "@/server/auth/principal";
import type { Actor } from "./registry.schema";

export function actorOf(p: Principal): Actor {
  switch (p.kind) {
    case "owner":
      return { kind: "owner", name: "owner" };
    case "token":
      return { kind: "token", name: p.name };
    case "open":
      return { kind: "open", name: "loopback (no owner password set)" };
  }
}
