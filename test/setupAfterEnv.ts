// Every test file, once it is done: nock gives node's http/https back. Node's core modules are
// shared by the test files one Jest worker runs, while each file loads its own nock; a nock left
// applied would sit under the next file's and answer (or refuse) that file's http.request calls
// itself (the API lookups use http.request, to check the address each socket connects to). After
// nock's own restore, node's functions are put back as the worker's first file found them: a
// restore that left one patched once made the API-lookup files after it fail in the same worker.
import nock from "nock";
import { restorePristineHttp } from "./pristineHttp";

afterAll(() => {
  nock.cleanAll();
  nock.restore();
  restorePristineHttp();
});
