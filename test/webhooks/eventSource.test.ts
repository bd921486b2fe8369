// A header event source may name a default event for deliveries that come without the header
// (Bitbucket Cloud sends some that way); without a default the header stays required.
import { resolveEvent } from "../../src/webhooks/events";

it("a missing header falls back to the source's default", () => {
  expect(resolveEvent({ header: "X-Event-Key", default: "*" }, {}, {}, "Bitbucket")).toMatchObject({ event: "*" });
  expect(
    resolveEvent({ header: "X-Event-Key", default: "*" }, { "x-event-key": "repo:push" }, {}, "Bitbucket"),
  ).toMatchObject({
    event: "repo:push",
  });
});

it("without a default, the header is required", () => {
  expect(() => resolveEvent({ header: "X-Event-Key" }, {}, {}, "Bitbucket")).toThrow(
    "Missing the HTTP event header 'X-Event-Key'",
  );
});
