// Request bodies of the wrong shape for any webhook: empty, not JSON, JSON of the wrong type, and
// objects whose usual fields hold the wrong types. Shared by the pure check of every event
// (test/unit/oddPayloads.test.ts) and the end-to-end one through the app (test/api/robustness.test.ts).
export const ODD_OBJECT_BODIES = [
  "{}",
  '{"a": 1}',
  '{"commits": null, "alerts": "x", "text": 5, "blocks": [null, 1, {"type": 7}], "attachments": {}}',
];

export const ODD_BODIES = ["", "null", "[]", "not json", "payload=%7B%7D", ...ODD_OBJECT_BODIES];
