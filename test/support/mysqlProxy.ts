// A TCP proxy between the app and MariaDB that can cut a connection at the worst moment for a
// commit: it reads the MySQL protocol's packets from the app (3-byte length, sequence byte, then a
// command; COM_QUERY is 0x03 + SQL text) and, once a connection's transaction has sent SQL that
// contains a marker, springs on that connection's COMMIT:
//   - "before-commit": the COMMIT is never passed on; the connection is KILLed on the server, which
//     rolls the transaction back. The app sees its connection lost during COMMIT.
//   - "after-commit": the COMMIT is passed on and the server commits; its OK is held back, the
//     connection is KILLed and cut. The app sees its connection lost during COMMIT although it committed.
// `refuseConnections` cuts every connection through the proxy and refuses new ones (the database
// unreachable) until `acceptConnections`.
import net from "node:net";
import knex, { type Knex } from "knex";

export type TrapMode = "before-commit" | "after-commit";

interface Link {
  app: net.Socket;
  db: net.Socket;
  threadId?: number;
  sawMarker: boolean;
  holdReplies: boolean;
}

export interface MysqlProxy {
  port: number;
  /**
   * Springs once, on the COMMIT of the first transaction that sends SQL containing `marker`;
   * `thenRefuse`: at the same moment the proxy starts refusing connections.
   */
  arm(mode: TrapMode, marker: string, options?: { thenRefuse?: boolean }): Promise<void>;
  refuseConnections(): void;
  acceptConnections(): void;
  close(): Promise<void>;
}

export async function startMysqlProxy(target: { host: string; port: number }, adminUrl: string): Promise<MysqlProxy> {
  const admin: Knex = knex({ client: "mysql2", connection: { uri: adminUrl } as never, pool: { min: 0, max: 1 } });
  const links = new Set<Link>();
  let refusing = false;
  let trap: { mode: TrapMode; marker: string; thenRefuse: boolean; sprung: () => void } | undefined;

  const cut = (link: Link) => {
    link.app.destroy();
    link.db.destroy();
    links.delete(link);
  };
  const refuse = () => {
    refusing = true;
    for (const link of [...links]) cut(link);
  };
  const killOnServer = async (link: Link, thenRefuse: boolean) => {
    if (link.threadId !== undefined) await admin.raw(`KILL CONNECTION ${link.threadId}`).catch(() => undefined);
    if (thenRefuse) refuse();
    cut(link);
  };

  const server = net.createServer((app) => {
    if (refusing) return void app.destroy();
    const db = net.connect(target.port, target.host);
    const link: Link = { app, db, sawMarker: false, holdReplies: false };
    links.add(link);
    let pending = Buffer.alloc(0);
    app.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const length = pending.readUIntLE(0, 3);
        if (pending.length < 4 + length) break;
        const packet = pending.subarray(0, 4 + length);
        pending = pending.subarray(4 + length);
        if (packet[4] === 0x03 && trap) {
          const sql = packet.subarray(5).toString("utf8");
          if (sql.includes(trap.marker)) link.sawMarker = true;
          if (link.sawMarker && /^\s*commit\b/i.test(sql)) {
            const { mode, thenRefuse, sprung } = trap;
            trap = undefined;
            if (mode === "before-commit") return void killOnServer(link, thenRefuse).then(sprung);
            link.holdReplies = true;
            db.once("data", () => void killOnServer(link, thenRefuse).then(sprung)); // the OK of a commit made
          }
        }
        db.write(packet);
      }
    });
    db.on("data", (chunk: Buffer) => {
      // The server's greeting: protocol 10, its version (NUL-terminated), then the connection id.
      if (link.threadId === undefined && chunk.length > 5 && chunk[4] === 10) {
        link.threadId = chunk.readUInt32LE(chunk.indexOf(0, 5) + 1);
      }
      if (!link.holdReplies) app.write(chunk);
    });
    const end = () => cut(link);
    app.on("close", end).on("error", end);
    db.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    arm(mode, marker, options = {}) {
      return new Promise(
        (resolve) => (trap = { mode, marker, thenRefuse: options.thenRefuse ?? false, sprung: resolve }),
      );
    },
    refuseConnections: refuse,
    acceptConnections() {
      refusing = false;
    },
    async close() {
      for (const link of [...links]) cut(link);
      await new Promise((resolve) => server.close(resolve));
      await admin.destroy();
    },
  };
}
