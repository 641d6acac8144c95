// Free TCP ports on 127.0.0.1, asked of the OS: the replicated cluster's nodes and relays (platform/replicated.ts)
// and the tests' scratch servers (lib/testing.ts).
import net from "node:net";

/** Whether 127.0.0.1:`port` can be listened on now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** A port free on 127.0.0.1: `preferred` when it is free (a port recorded by an earlier start), else one the OS picks. */
export async function freePort(preferred?: number): Promise<number> {
  if (preferred && (await canListen(preferred))) return preferred;
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}
