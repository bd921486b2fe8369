// A fresh demo organization has a first message: clients such as zulip-terminal cannot start on an
// empty message list. Seeding twice (a second replica, a restart) adds nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { seedDemoIfEmpty, WELCOME_TOPIC } from "../../src/services/realms/demo";
import { openFreshDatabase } from "../support/database";

it("seeds a welcome message in #general from the Notification Bot, once", async () => {
  const database = await openFreshDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-demo-"));
  try {
    await database.db.migrate.latest();
    const demo = await seedDemoIfEmpty(database.db, { dataDir, externalUrl: "http://localhost:9991" });
    expect(demo?.channel).toBe("general");
    const messages = await database
      .db("messages as m")
      .join("streams as s", "s.id", "m.stream_id")
      .select("m.*", "s.name");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ name: "general", topic: WELCOME_TOPIC });
    expect(messages[0].content).toContain("Welcome to the **Switchboard Demo** organization!");
    const realm = await database.db("realms").first();
    expect(messages[0].sender_id).toBe(realm.notification_bot_id);
    // The owner and the member received it unread (the sender's own row is read).
    const rows = await database.db("user_messages").where({ message_id: messages[0].id }).orderBy("user_id");
    const users = await database.db("users").whereIn("email", ["owner@example.com", "member@example.com"]);
    const unread = rows
      .filter((r: { flags: number }) => (r.flags & 1) === 0)
      .map((r: { user_id: number }) => r.user_id);
    expect(unread.sort()).toEqual(users.map((u: { id: number }) => u.id).sort());

    expect(await seedDemoIfEmpty(database.db, { dataDir, externalUrl: "http://localhost:9991" })).toBeUndefined();
    expect(await database.db("messages").count({ n: "*" }).first()).toMatchObject({ n: 1 });
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
