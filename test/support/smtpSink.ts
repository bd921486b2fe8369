// A tiny SMTP server that records the mails it receives: a real peer for the mailer (nodemailer
// speaks SMTP to it over loopback), so tests can count and read what was sent.
import net from "node:net";

export interface SmtpSink {
  port: number;
  /** Each received mail's DATA section (headers and body), in arrival order. */
  messages: string[];
  close(): Promise<void>;
}

/** A tiny SMTP server that records what it receives (loopback only). */
export function fakeSmtp(): Promise<SmtpSink> {
  const messages: string[] = [];
  const srv = net.createServer((socket) => {
    let buffer = "";
    let inData = false;
    socket.write("220 fake ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end === -1) return;
          messages.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write("250 queued\r\n");
          continue;
        }
        const nl = buffer.indexOf("\r\n");
        if (nl === -1) return;
        const line = buffer.slice(0, nl).toUpperCase();
        buffer = buffer.slice(nl + 2);
        if (line.startsWith("EHLO") || line.startsWith("HELO")) socket.write("250 fake\r\n");
        else if (line.startsWith("DATA")) {
          inData = true;
          socket.write("354 go ahead\r\n");
        } else if (line.startsWith("QUIT")) socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
    socket.on("error", () => undefined);
  });
  return new Promise((resolve) => {
    srv.listen(0, "127.0.0.1", () => {
      resolve({
        port: (srv.address() as net.AddressInfo).port,
        messages,
        close: () => new Promise((r) => srv.close(() => r())),
      });
    });
  });
}
