/**
 * A pass-through that holds a body to its declared size while it streams: more bytes than allowed
 * fail at once with TOO_LARGE (so nothing past the limit is ever written), fewer than an exact size
 * fail at the end with PRECONDITION_FAILED. Drivers put it between the caller's stream and the sink.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { StorageError } from './driver.ts';

export class ByteLimit extends Transform {
  bytes = 0;
  /** The error this limiter raised, so a driver can report it instead of the sink's echo of it. */
  failure: StorageError | undefined;

  /**
   * @param max bytes allowed
   * @param exact when true the body must deliver exactly `max` bytes
   * @param onChunk sees every chunk that passes (hashing)
   */
  constructor(
    private readonly max: number,
    private readonly exact: boolean,
    private readonly onChunk?: (chunk: Buffer) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.max) {
      this.failure = new StorageError('TOO_LARGE', `body exceeds ${this.max} bytes`);
      done(this.failure);
      return;
    }
    this.onChunk?.(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.exact && this.bytes !== this.max) {
      this.failure = new StorageError(
        'PRECONDITION_FAILED',
        `body ended after ${this.bytes} of ${this.max} declared bytes`,
      );
      done(this.failure);
      return;
    }
    done();
  }
}

/** The limit a write's body streams through: exactly `size` bytes when it is declared, any number otherwise. */
export function bodyLimit(size: number | undefined, onChunk?: (chunk: Buffer) => void): ByteLimit {
  return size === undefined
    ? new ByteLimit(Number.MAX_SAFE_INTEGER, false, onChunk)
    : new ByteLimit(size, true, onChunk);
}
