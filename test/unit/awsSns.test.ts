// The pure parts of Amazon SNS verification (src/services/webhooks/awsSns.ts): the string SNS
// signs, which URLs count as SNS hosts, and the certificate cache's bound. Over HTTP:
// test/webhooks/awsSnsVerification.test.ts.
import crypto from "node:crypto";
import { snsHostUrl, snsStringToSign, SnsVerifier } from "../../src/services/webhooks/awsSns";
import { SNS_CERT_CACHE_MAX_ENTRIES } from "../../src/limits";

describe("snsStringToSign", () => {
  const base = { Message: "m\nline", MessageId: "id-1", Timestamp: "t", TopicArn: "arn", SigningCertURL: "ignored" };

  it("joins the signed keys in SNS's order, Subject only when present", () => {
    expect(snsStringToSign({ ...base, Type: "Notification", Subject: "s" })).toEqual({
      text: "Message\nm\nline\nMessageId\nid-1\nSubject\ns\nTimestamp\nt\nTopicArn\narn\nType\nNotification\n",
    });
    expect(snsStringToSign({ ...base, Type: "Notification", Subject: null })).toEqual({
      text: "Message\nm\nline\nMessageId\nid-1\nTimestamp\nt\nTopicArn\narn\nType\nNotification\n",
    });
    expect(snsStringToSign({ ...base, Type: "UnsubscribeConfirmation", SubscribeURL: "u", Token: "k" })).toEqual({
      text: "Message\nm\nline\nMessageId\nid-1\nSubscribeURL\nu\nTimestamp\nt\nToken\nk\nTopicArn\narn\nType\nUnsubscribeConfirmation\n",
    });
  });

  it("has nothing to sign for an unknown Type or a missing or non-text signed field", () => {
    expect(snsStringToSign({ ...base, Type: "Other" })).toHaveProperty("problem");
    expect(snsStringToSign({ ...base, Type: "SubscriptionConfirmation", Token: "k" })).toEqual({
      problem: "its signed field 'SubscribeURL' is missing or not text",
    });
    expect(snsStringToSign({ ...base, Type: "Notification", MessageId: 7 })).toEqual({
      problem: "its signed field 'MessageId' is missing or not text",
    });
  });
});

describe("snsHostUrl", () => {
  it.each([
    "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-1.pem",
    "https://sns.us-gov-west-1.amazonaws.com/x.pem",
    "https://sns.cn-north-1.amazonaws.com.cn/x.pem",
    "https://sns.ap-southeast-3.amazonaws.com/?Action=ConfirmSubscription",
  ])("accepts %s", (url) => expect(snsHostUrl(url)?.href).toBe(new URL(url).href));

  it.each([
    "http://sns.us-east-1.amazonaws.com/x.pem",
    "https://sns.us-east-1.amazonaws.com:444/x.pem",
    "https://a:b@sns.us-east-1.amazonaws.com/x.pem",
    "https://sns.us-east-1.amazonaws.com.evil.example/x.pem",
    "https://evil.example/sns.us-east-1.amazonaws.com/x.pem",
    "https://sqs.us-east-1.amazonaws.com/x.pem",
    "https://sns.amazonaws.com/x.pem",
    "EXAMPLE",
    42,
  ])("refuses %s", (url) => expect(snsHostUrl(url)).toBeUndefined());
});

describe("SnsVerifier's certificate cache", () => {
  it(`never holds more than SNS_CERT_CACHE_MAX_ENTRIES (${SNS_CERT_CACHE_MAX_ENTRIES})`, () => {
    const { publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
    const verifier = new SnsVerifier();
    for (let i = 0; i <= SNS_CERT_CACHE_MAX_ENTRIES; i++)
      verifier.remember(`https://sns.us-east-1.amazonaws.com/${i}.pem`, publicKey);
    expect(verifier.cachedCertificates).toBe(SNS_CERT_CACHE_MAX_ENTRIES);
  });
});

describe("SnsVerifier.verify", () => {
  it("refuses (never throws another error) a signature checked against a key that is not RSA", async () => {
    const { publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
    const verifier = new SnsVerifier();
    const url = "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-ec.pem";
    verifier.remember(url, publicKey);
    const message = {
      Type: "Notification",
      Message: "m",
      MessageId: "1",
      Timestamp: "t",
      TopicArn: "arn",
      SignatureVersion: "2",
      Signature: "c2lnbmF0dXJl",
      SigningCertURL: url,
    };
    await expect(verifier.verify(message)).rejects.toMatchObject({
      code: "INVALID_SIGNATURE",
      message: "Amazon SNS signature refused: the Signature (version 2) does not match the message",
    });
  });
});
