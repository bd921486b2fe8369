import { startTestServer, type TestServer } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("POST /messages", () => {
  it("sends a channel message that subscribers can read back", async () => {
    const res = await server.as(server.users.member).post("/messages", { type: "stream", to: "general", topic: "greetings", content: "Hello **world**" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: "success", msg: "" });
    const id = res.body.id;
    const read = await server.as(server.users.other).get(`/messages/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.message).toMatchObject({ id, subject: "greetings", content: "<p>Hello <strong>world</strong></p>", display_recipient: "general" });
    const rows = await server.db("user_messages").where({ message_id: id });
    expect(rows).toHaveLength(4);
  });
});
