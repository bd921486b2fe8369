// Every test file: no outbound network except the app on loopback; quiet logs.
import nock from "nock";

process.env.NODE_ENV = "test";
nock.disableNetConnect();
nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
