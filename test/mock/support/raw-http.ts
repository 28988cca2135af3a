// Raw HTTP/1.1 over a real socket, for requests fetch cannot send (bytes Node's parser refuses, bad targets).
import net from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Sends raw bytes and reads the answer until the server closes the connection (the request asks it to).
 * `keepOpen`: the socket's sending side stays open after the bytes (a slow or idle client), else it is ended.
 */
export function sendRaw(
  port: number,
  bytes: Buffer,
  options: { keepOpen?: boolean } = {},
): Promise<RawAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer within 10 s"));
    }, 10_000);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", () => {}); // a reset after the answer is fine; a missing answer is judged below
    socket.on("close", () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      const end = raw.indexOf("\r\n\r\n");
      if (end === -1) return resolve(undefined);
      const [statusLine, ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: raw.subarray(end + 4) });
    });
    if (options.keepOpen) socket.write(bytes);
    else socket.end(bytes);
  });
}
