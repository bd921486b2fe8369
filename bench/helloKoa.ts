// Baseline for the bench: a bare Koa hello world on the same machine, in the same run.
import Koa from "koa";

const app = new Koa();
app.use((ctx) => {
  ctx.body = { result: "success", msg: "" };
});
app.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("listening\n"));
