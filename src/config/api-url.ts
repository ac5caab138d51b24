/**
 * Where requests may go, checked when the settings are parsed, before any request: credentials only
 * travel over https (or to this machine), and the managed ids are UUIDs.
 */
import { isIP } from 'node:net'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const isUuid = (value: string): boolean => UUID.test(value)

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (isIP(host) === 4) return host.startsWith('127.')
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1'
  return false
}

/** A normalized base URL without a trailing slash, or an error that names the rule. */
export function checkApiUrl(input: string, allowInsecureHttp: boolean): { url?: string; error?: string } {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    // Never echo what might carry a credential (user:password@host).
    return { error: `is not a URL: "${input.replace(/\/\/[^/@]*@/, '//***@')}"` }
  }
  if (url.username || url.password) {
    // Never echo the URL back: it carries a credential.
    return { error: 'must not contain credentials; use api-key, or key-id and key-secret' }
  }
  // An empty `?` or `#` leaves url.search and url.hash empty, but would still end up in every request path.
  if (url.search || url.hash || input.includes('?') || input.includes('#')) {
    return { error: 'must not have a query string or fragment' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { error: `must be an https URL, got ${url.protocol.replace(':', '')}` }
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    return {
      error: `must be https: ${url.host} is not a loopback address and credentials would travel unencrypted (set allow-insecure-http to accept that)`
    }
  }
  return { url: url.toString().replace(/\/+$/, '') }
}
