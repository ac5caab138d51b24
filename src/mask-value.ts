/**
 * Values from the data (a tile's group names, a table's cells) can be people's data: a table grouped by
 * `user_email` or `client_ip` would print them in a pull request comment. `preview-values` (mask, the
 * default) masks each part of a value that looks personal and keeps the rest, so `checkout` reads as it is
 * and `jane.doe@customer.example` as `j***e@customer.example #3f2a`: the same keyed tag as a team member's
 * email (mask-email.ts), so one value reads alike in every output of a run and can be told apart from
 * another, and nobody without the credential can test a guess.
 *
 * Looks personal: an email, an IPv4 or IPv6 address, a number of 6 or more digits (an account, a phone, a
 * card). Each is masked where it sits, also inside a longer value (`user 1234567 logged in`).
 */
import { isIPv4, isIPv6 } from 'node:net'
import { maskEmail, runMask } from './mask-email.js'

/** What `preview-values` keeps of a value from the data: all of it, its impersonal parts, nothing. */
export type ValuesMode = 'show' | 'mask' | 'hide'

/** Quotes written as escapes (\u0022 \u0027 \u0060): an email ends at any of them. */
const EMAIL =
  /[^\s@<>()[\]\u0022\u0027\u0060,;:]+@[^\s@<>()[\]\u0022\u0027\u0060,;:]+\.[^\s@<>()[\]\u0022\u0027\u0060,;:]+/gu
/** A candidate address: dotted digits, or hex groups with colons (isIPv4 / isIPv6 decide). */
const IPV4 = /(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])/gu
const IPV6 = /(?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:%\w+)?(?![\w:])/gu
const LONG_NUMBER = /\d{6,}/gu

/** `value` with each personal-looking part masked; the rest as it is. */
export function maskPersonal(value: string): string {
  const tag = (part: string) => runMask().tag(part.toLowerCase())
  return value
    .replace(EMAIL, email => maskEmail(email))
    .replace(IPV4, ip => (isIPv4(ip) ? `IPv4 #${tag(ip)}` : ip))
    .replace(IPV6, ip => (isIPv6(ip.replace(/%\w+$/u, '')) ? `IPv6 #${tag(ip)}` : ip))
    .replace(LONG_NUMBER, digits => `${digits.length} digits #${tag(digits)}`)
}

/** Whether a value holds anything that looks personal. */
export function looksPersonal(value: string): boolean {
  return maskPersonal(value) !== value
}

/** A value from the data as `preview-values` keeps it: whole, masked where personal, or not at all. */
export function dataValue(value: string, mode: ValuesMode): string | undefined {
  if (mode === 'hide') return undefined
  return mode === 'show' ? value : maskPersonal(value)
}
