import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** PostgreSQL "goes away": open connections are cut and new ones refused. */
  cut(): Promise<void>;
  /** It is back on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
  /** From now on, a connection whose client sends bytes holding `text` is cut there (the bytes are not passed on). */
  cutConnectionOn(text: string | null): void;
}

/** A TCP proxy on 127.0.0.1 in front of `target` (e.g. PostgreSQL on 5432), for cutting it off in a test. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let cutOn: string | null = null;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      if (cutOn !== null && chunk.includes(cutOn)) {
        client.destroy();
        upstream.destroy();
        return;
      }
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    client.on('end', () => upstream.end());
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  return {
    port,
    cut: stop,
    restore: () => listen(port),
    close: stop,
    cutConnectionOn: (text) => {
      cutOn = text;
    },
  };
}
