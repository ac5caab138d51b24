/**
 * What a failed connection means: whether the request may have reached the server, whether waiting can
 * help, and what to do about it. A certificate or TLS error never goes away by itself; retrying it only
 * hides the cause for a minute.
 */

export interface NetworkFailure {
  /** The error's code (`ECONNREFUSED`, `ERR_SSL_WRONG_VERSION_NUMBER`, ...). */
  code: string
  /** In words, for the message: "connection failed (ECONNREFUSED: ...)". */
  cause: string
  /**
   * `never`: the request did not leave this machine (safe to send again, for any method); `maybe`: it
   * may have been processed; `permanent`: waiting will not help (no retry at all).
   */
  sent: 'never' | 'maybe' | 'permanent'
  /** What to do about it, when there is something to say. */
  hint?: string
}

/** The request never left this machine. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN'
])
/** Waiting will not help. `UND_ERR_DESTROYED`/`UND_ERR_CLOSED`: the client itself is gone. */
const PERMANENT = new Set([
  'ENOTFOUND',
  'EAI_FAIL',
  'ERR_INVALID_URL',
  'UND_ERR_INVALID_ARG',
  'UND_ERR_DESTROYED',
  'UND_ERR_CLOSED'
])
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

const PLAIN_HTTP_ANSWER = /wrong version number|packet length too long|http request|unknown protocol/i

/**
 * `timeoutMs`: how long this attempt waited; `requestTimeoutMs`: the setting, when the retry budget cut the wait
 * shorter (the message then names both, so "27 s" is never a mystery beside a 30 s setting).
 */
export function classifyNetworkError(
  e: unknown,
  timeoutMs: number,
  requestTimeoutMs = timeoutMs
): NetworkFailure {
  const err = e as {
    code?: string
    name?: string
    message?: string
    cause?: { code?: string; message?: string }
  }
  const code = err.code ?? err.cause?.code ?? err.name ?? 'error'
  const message = err.message ?? err.cause?.message ?? ''
  if (err.name === 'TimeoutError' || TIMEOUTS.has(code)) {
    const setting =
      timeoutMs < requestTimeoutMs
        ? ` (request-timeout ${seconds(requestTimeoutMs)}, cut to what the retry budget had left)`
        : ` (request-timeout)`
    return { code, cause: `no response within ${seconds(timeoutMs)}${setting}`, sent: 'maybe' }
  }
  // OpenSSL's own text ("...:SSL routines:ssl3_get_record:wrong version number:../deps/...") is noise.
  const cause = `connection failed (${code}${message && !isTls(code) ? `: ${message}` : ''})`
  if (isTls(code)) return { code, cause, sent: 'permanent', hint: tlsHint(code, message) }
  if (code === 'ENOTFOUND' || code === 'EAI_FAIL') {
    return {
      code,
      cause,
      sent: 'permanent',
      hint: 'The host name in api-url does not resolve: check its spelling'
    }
  }
  if (PERMANENT.has(code)) return { code, cause, sent: 'permanent' }
  if (NOT_SENT.has(code)) return { code, cause, sent: 'never' }
  return { code, cause, sent: 'maybe' }
}

/** OpenSSL's codes (`ERR_SSL_*`), Node's TLS codes (`ERR_TLS_*`) and the certificate checks' (`*CERT*`). */
function isTls(code: string): boolean {
  return /^ERR_SSL_|^ERR_TLS_|CERT|^EPROTO$|^UNABLE_TO_VERIFY|^UNABLE_TO_GET_ISSUER/.test(code)
}

function tlsHint(code: string, message: string): string {
  if (PLAIN_HTTP_ANSWER.test(`${code} ${message}`)) {
    return 'The server answered in plain HTTP, not TLS: if it serves http on this port, use an http:// api-url (loopback only, or set allow-insecure-http); otherwise a proxy in between is answering instead of the server'
  }
  if (/CERT|UNABLE_TO/.test(code)) {
    return `The server's TLS certificate is not trusted here (${code}). If a private CA signed it, point NODE_EXTRA_CA_CERTS at that CA's PEM file; a proxy that inspects TLS needs its CA there too. The host in api-url must be a name on the certificate`
  }
  return 'The TLS handshake failed: check http vs https in api-url, any proxy in between, and the CA (NODE_EXTRA_CA_CERTS)'
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
