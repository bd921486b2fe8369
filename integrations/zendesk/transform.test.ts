import { parseComment, ticketUrl } from "./transform";

describe("zendesk placeholders", () => {
  it("reads the author and text out of a formatted comment", () => {
    const text =
      "----------------------------------------------\n\nJonas Berg, Mar 4, 2025, 09:12\n\nHi,\nplease reissue it.";
    expect(parseComment(text)).toEqual({ author: "Jonas Berg", body: "Hi,\nplease reissue it." });
  });

  it("keeps a comment without the decoration as it is", () => {
    expect(parseComment("Just the text")).toEqual({ author: undefined, body: "Just the text" });
    expect(parseComment("-----\n\n")).toBeUndefined();
  });

  it("adds the scheme {{ticket.url}} leaves out, and refuses what is not a URL", () => {
    expect(ticketUrl("acme.zendesk.com/agent/tickets/7")).toBe("https://acme.zendesk.com/agent/tickets/7");
    expect(ticketUrl("https://acme.zendesk.com/agent/tickets/7")).toBe("https://acme.zendesk.com/agent/tickets/7");
    expect(ticketUrl("javascript:alert(1)")).toBeUndefined();
  });
});
