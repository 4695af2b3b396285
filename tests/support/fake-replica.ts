// A read replica whose replay position a test sets, for routing tests without a standby
// (tests/db/replica-routing.test.ts, tests/faults/replica-positions-redis.test.ts).
import type { ReplicaServer } from "@/lib/db/replicas";

/** A replica whose replay position the test sets; `down` makes its statements fail as a stopped server's do. */
export interface FakeReplica {
  replayed: string;
  down: boolean;
  asked: number;
  server: ReplicaServer;
}

export function fakeReplica(name: string): FakeReplica {
  const replica: FakeReplica = {
    replayed: "0/0",
    down: false,
    asked: 0,
    server: {
      name,
      connect: async () => {
        throw new Error("not used");
      },
      statementName: () => undefined,
      read: async () => {
        throw new Error("not used");
      },
      prisma: {} as ReplicaServer["prisma"],
      query: async <Row>() => {
        replica.asked++;
        if (replica.down) throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
        return [{ position: replica.replayed }] as Row[];
      },
      close: async () => {},
    },
  };
  return replica;
}
