/**
 * Streamed downloads on one FTP control connection (docs/architecture.md, "Drivers"): RETR, after
 * REST for a start offset, delivered as a web stream that reads from the data connection only as
 * fast as it is consumed. A read that wants less than the rest of the file (a range, or a reader
 * that stops early) cuts the data connection and waits for the server's reply to the cut transfer,
 * so the control connection can run the next command.
 */
import type { Socket } from 'node:net';
import { type Client, type FTPResponse } from 'basic-ftp';
import { StorageError } from '../../driver.ts';
import { ftpStorageError } from './ftp-errors.ts';
import { FTP_TUNING } from './ftp-tuning.ts';

export interface Retrieval {
  body: ReadableStream<Uint8Array>;
  /** Settles once the connection is done with the transfer: true when it can run the next command. */
  done: Promise<boolean>;
}

/**
 * Starts reading `length` bytes (all that remain when null) of `remote` from `start`. Resolves once
 * the server has begun sending (a refusal such as a missing file rejects here, the client still usable).
 */
export async function retrieve(
  client: Client,
  remote: string,
  start: number,
  length: number | null,
  label: string,
): Promise<Retrieval> {
  const ftp = client.ftp;
  await client.prepareTransfer(ftp);
  const socket = ftp.dataSocket as Socket;
  socket.pause();

  let cutting = false;
  /** Whether the cut transfer's last reply has come (then a NOOP has been sent after it). */
  let transferEnded = false;
  let begun!: () => void;
  const started = new Promise<void>((resolve) => (begun = resolve));
  const control = ftp.handle(start > 0 ? `REST ${start}` : `RETR ${remote}`, (res, task) => {
    const code = (res as { code?: unknown }).code;
    if (cutting) {
      // After a cut, nothing is sent until the transfer's own last reply has come: whatever its
      // code (226, 426, 451; pure-ftpd ends a cut transfer with a line of the code it last used,
      // 150), it is the first reply after the cut. A command sent earlier would meet a transfer
      // still running, and pure-ftpd answers that with 500 and then ends the transfer with one more
      // 500, so no count of replies tells which is which. Then a NOOP: its 200 means the server
      // has nothing more to say, and the connection can run the next command. Anything else (a
      // second reply to the transfer, say 226 after 426), and the connection is dropped rather
      // than risk a reply taken for the next command's.
      if (res instanceof Error && typeof code !== 'number') {
        task.reject(res);
      } else if (!transferEnded) {
        transferEnded = true;
        ftp.send('NOOP');
      } else if (code === 200) {
        task.resolve(res as FTPResponse);
      } else {
        task.reject(new Error(`unexpected reply to NOOP after a cut transfer: ${String(code)}`));
      }
    } else if (res instanceof Error) {
      task.reject(res);
    } else if (res.code === 350) {
      ftp.send(`RETR ${remote}`);
    } else if (res.code === 150 || res.code === 125) {
      // The control connection stays silent for as long as the transfer runs.
      ftp.socket.setTimeout(0);
      begun();
    } else if (res.code >= 200 && res.code < 300) {
      task.resolve(res);
    } else {
      task.reject(new Error(`unexpected reply to RETR: ${res.code}`));
    }
  });
  const ended: Promise<FTPResponse> = control;
  let settled = false;
  ended.then(
    () => (settled = true),
    () => (settled = true),
  );

  try {
    await Promise.race([started, control]);
  } catch (error) {
    ftp.dataSocket = undefined;
    throw error;
  }

  let remaining = length ?? Number.POSITIVE_INFINITY;
  let settle!: (healthy: boolean) => void;
  const done = new Promise<boolean>((resolve) => (settle = resolve));
  let finished = false;

  /** Ends the transfer: cuts the data connection unless it ended, then waits for the reply. */
  const finish = async (dataEnded: boolean): Promise<void> => {
    if (finished) return;
    finished = true;
    socket.removeAllListeners('data');
    if (!dataEnded && !settled) {
      cutting = true;
      ftp.dataSocket = undefined;
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), FTP_TUNING.abortReplyMs);
    });
    const outcome = await Promise.race([ended.then(() => 'ok' as const), timeout]).catch(
      () => 'failed' as const,
    );
    clearTimeout(timer);
    if (dataEnded) ftp.dataSocket = undefined;
    if (outcome !== 'ok') client.close();
    settle(outcome === 'ok');
  };

  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        socket.on('data', (chunk: Buffer) => {
          const take = chunk.length > remaining ? chunk.subarray(0, remaining) : chunk;
          remaining -= take.length;
          controller.enqueue(new Uint8Array(take.buffer, take.byteOffset, take.length));
          if (remaining === 0) {
            controller.close();
            void finish(false);
          } else if ((controller.desiredSize ?? 0) <= 0) {
            socket.pause();
          }
        });
        socket.once('end', () => {
          if (finished) return;
          void finish(true).then(async () => {
            const healthy = await done;
            if (!healthy) {
              controller.error(ftpStorageError(await ended.catch((error: unknown) => error), 'read', label));
            } else if (Number.isFinite(remaining) && remaining > 0) {
              controller.error(new StorageError('PRECONDITION_FAILED', `${label} changed while being read`));
            } else {
              controller.close();
            }
          });
        });
        // The connection dropped (basic-ftp closed the client): the reply never comes.
        ended.catch((error: unknown) => {
          if (finished) return;
          finished = true;
          settle(false);
          controller.error(ftpStorageError(error, 'read', label));
        });
      },
      pull() {
        socket.resume();
      },
      async cancel() {
        await finish(false);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: FTP_TUNING.readAheadBytes }),
  );
  return { body, done };
}
