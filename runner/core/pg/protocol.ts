// Pre-built extended-protocol messages for the hot loops. They are byte for byte what node-postgres sends
// (pg-protocol's serializer: Bind with one text format code per parameter and one text result format code,
// then Describe portal, Execute, Sync), built once and written as they are, or with a parameter region
// filled in place. Why: node-postgres serialises a 200 KB bytea[] parameter by growing and copying its
// writer buffer several times per batch, and re-serialises constant parameters (a reader's claim) on every
// poll; both were measurable shares of the runner's CPU at 5,000 msg/s.
const { serialize } = require("pg-protocol") as {
  serialize: { describe(m: { type: "P"; name: string }): Buffer; execute(c?: object): Buffer; sync(): Buffer; query(text: string): Buffer };
};

/** Describe portal + Execute + Sync, the tail of every Bind node-postgres sends. */
const TAIL = Buffer.concat([serialize.describe({ type: "P", name: "" }), serialize.execute(), serialize.sync()]);

/** A simple-protocol Query message ("BEGIN", "COMMIT", …). */
export const simpleQueryMessage = (text: string): Buffer => serialize.query(text);

/**
 * Bind (unnamed portal, prepared statement `statement`, every parameter in text format) + Describe + Execute
 * + Sync. A parameter given as a number is a placeholder of that many bytes, to be filled in place: its
 * offset is returned in `offsets` (other parameters' offsets too).
 */
export function bindExecuteMessage(statement: string, params: (string | number)[]): { message: Buffer; offsets: number[] } {
  const name = Buffer.from(`${statement}\0`, "utf8");
  const values = params.map((p) => (typeof p === "number" ? p : Buffer.byteLength(p, "utf8")));
  const bodyLength = 4 + 1 + name.length + 2 + 2 * params.length + 2 + values.reduce((a, n) => a + 4 + n, 0) + 2 + 2;
  const message = Buffer.alloc(1 + bodyLength + TAIL.length);
  let o = 0;
  message[o++] = 0x42; // 'B'
  o = message.writeInt32BE(bodyLength, o);
  message[o++] = 0; // unnamed portal
  o += name.copy(message, o);
  o = message.writeInt16BE(params.length, o); // one format code per parameter: 0 = text (as pg-protocol)
  for (let i = 0; i < params.length; i++) o = message.writeInt16BE(0, o);
  o = message.writeInt16BE(params.length, o);
  const offsets: number[] = [];
  params.forEach((p, i) => {
    o = message.writeInt32BE(values[i], o);
    offsets.push(o);
    if (typeof p === "string") message.write(p, o, "utf8");
    o += values[i];
  });
  o = message.writeInt16BE(1, o); // one result format code
  o = message.writeInt16BE(0, o); // text
  TAIL.copy(message, o);
  return { message, offsets };
}
