// The SQLite connection keeps its prepared statements by SQL text (src/db/knex.ts): the same query
// shape with other values, a schema change under a kept statement, and more distinct texts than it
// keeps must all still give the right rows.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, type Db } from "../../src/db/knex";

let db: Db;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-stmt-"));
  db = createDb(undefined, dir);
  await db.schema.createTable("things", (t) => {
    t.increments("id");
    t.string("name");
  });
  await db("things").insert([{ name: "a" }, { name: "b" }, { name: "c" }]);
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("SQLite prepared statements kept by the connection", () => {
  it("answers the same query shape with each call's own values", async () => {
    const names: string[] = [];
    for (const id of [1, 2, 3, 2]) names.push((await db("things").where({ id }).first()).name);
    expect(names).toEqual(["a", "b", "c", "b"]);
    const counts = [];
    for (const name of ["a", "zz"]) counts.push((await db("things").where({ name })).length);
    expect(counts).toEqual([1, 0]);
  });

  it("sees a column added after the statement was first prepared", async () => {
    expect(await db("things").select("*").where({ id: 1 })).toEqual([{ id: 1, name: "a" }]);
    await db.schema.alterTable("things", (t) => t.integer("size").defaultTo(7));
    expect(await db("things").select("*").where({ id: 1 })).toEqual([{ id: 1, name: "a", size: 7 }]);
  });

  it("stays right past the number of statements it keeps", async () => {
    // 600 distinct texts (more than the 500 kept), then the first ones again.
    for (let i = 0; i < 600; i++) {
      const row = await db("things")
        .select(db.raw(`id + ${i} as v`))
        .where({ id: 1 })
        .first();
      expect(row.v).toBe(1 + i);
    }
    const again = await db("things").select(db.raw("id + 0 as v")).where({ id: 3 }).first();
    expect(again.v).toBe(3);
  });

  it("runs writes through kept statements: ids and changes are each call's own", async () => {
    const ids = [];
    for (const name of ["d", "e"]) ids.push((await db("things").insert({ name }))[0]);
    expect(ids).toEqual([4, 5]);
    expect(await db("things").where({ name: "d" }).update({ size: 1 })).toBe(1);
    expect(await db("things").where("id", ">", 3).update({ size: 2 })).toBe(2);
  });
});
