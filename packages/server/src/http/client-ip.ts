/**
 * The client's address: the socket peer, or — behind TRUST_PROXY hops — the address the nearest
 * trusted proxy saw, taken from the right of X-Forwarded-For (the left end is client-controlled).
 */
import type { Context } from 'hono';

export function clientIp(c: Context, trustProxyHops: number): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  const peer = incoming?.socket?.remoteAddress ?? 'unknown';
  if (trustProxyHops <= 0) return peer;
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return forwarded[forwarded.length - trustProxyHops] ?? forwarded[0] ?? peer;
}
