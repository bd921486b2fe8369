// Fixture case names (docs/writing-an-integration.md, "The fixtures"): which names mark an error or
// an ignore case, the refusal UPDATE_FIXTURES gives for anything else, and the event header a
// header-sourced case is sent with, read from real fixture folders.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  headerEventOfCase,
  isErrorCaseName,
  isIgnoreCaseName,
  loadFixtureCases,
  refusalToRecord,
} from "../../src/webhooks/fixtures";
import { loadIntegrationFolder } from "../../src/webhooks/loader";

describe("fixture case names", () => {
  it("marks error and ignore cases by a word anywhere in the name", () => {
    for (const name of ["error__no_title", "push__invalid_ref", "git.push__error_no_ref", "unsupported__event"])
      expect(isErrorCaseName(name)).toBe(true);
    for (const name of ["ignore__worklog", "todo__ignored", "push__branch_filtered", "goodbye__excluded"])
      expect(isIgnoreCaseName(name)).toBe(true);
    for (const name of ["push__tag", "errorless", "issues__opened_null_body"]) {
      expect(isErrorCaseName(name)).toBe(false);
      expect(isIgnoreCaseName(name)).toBe(false);
    }
  });

  it("refuses to record an error or an ignored result for a case not named so, naming the case", () => {
    const error = { error: { status: 400, code: "INVALID_PAYLOAD", msg: "Invalid X payload: /a is missing" } };
    expect(refusalToRecord("push__tag", error)).toMatch(/^push__tag: the server answered 400 INVALID_PAYLOAD/);
    expect(refusalToRecord("push__tag", { ignored: true })).toMatch(/^push__tag: the delivery was ignored/);
    expect(refusalToRecord("error__push", error)).toBeUndefined();
    expect(refusalToRecord("push__ignored_tag", { ignored: true })).toBeUndefined();
    expect(refusalToRecord("push__tag", { topic: "t", content: "c" })).toBeUndefined();
  });

  it("sends a header-sourced case with its event, skipping a leading marker", () => {
    expect(headerEventOfCase("push__delete_branch")).toBe("push");
    expect(headerEventOfCase("ignore__push__tag")).toBe("push");
    expect(headerEventOfCase("error__issues")).toBe("issues");
    expect(headerEventOfCase("ping")).toBe("ping");

    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sb-names-"));
    try {
      const github = loadIntegrationFolder(path.resolve(__dirname, "../../integrations/github"));
      fs.writeFileSync(path.join(tmp, "ignore__push__private.json"), "{}");
      const [c] = loadFixtureCases({ ...github, fixturesDir: tmp });
      expect(c.headers).toMatchObject({ "X-GitHub-Event": "push" });
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
