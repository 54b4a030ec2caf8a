/**
 * What a failed connection looks like from Node, for every driver that talks to another server
 * (S3, WebDAV, SFTP, FTP): the socket errors that mean the server cannot be reached or went away,
 * and the certificate and handshake errors of TLS. One list, so every driver words them alike.
 */

/** Socket and stream errors: no connection, or a connection lost. */
const NETWORK_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_SOCKET_CLOSED',
  'UND_ERR_SOCKET',
]);

/** Node's certificate verification failures (OpenSSL's verify codes) and TLS protocol errors. */
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

const codeOf = (error: unknown): string => String((error as { code?: unknown } | null)?.code ?? '');

/** The error's code when it is a socket error (no connection, or one lost); undefined otherwise. */
export function networkErrno(error: unknown): string | undefined {
  const code = codeOf(error);
  return NETWORK_ERRNOS.has(code) ? code : undefined;
}

/** A TLS failure: a certificate that does not verify, a handshake that breaks, a server without TLS. */
export function isTlsError(error: unknown): boolean {
  const code = codeOf(error);
  if (TLS_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return true;
  const message = error instanceof Error ? error.message : '';
  return (
    /CERT|SELF_SIGNED|UNABLE_TO_|HOSTNAME/.test(code) || /certificate|SSL routines|\bTLS\b/i.test(message)
  );
}
