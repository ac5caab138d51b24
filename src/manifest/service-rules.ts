/** ServiceSettings rules its schema cannot express: the name's letters, addresses and CIDRs, no entry twice. */
import { isIP } from 'node:net'
import type { Diagnostic } from '../diagnostics.js'
import { reporter } from './rule-report.js'
import type { ServiceSettingsSpec } from './schema.js'
import type { ParsedDocument } from './yaml.js'

/** `name` is 1-50 letters, digits and whitespace (CONTRACT.md, service-update). */
export const SERVICE_NAME_PATTERN = /^[A-Za-z0-9\s]{1,50}$/

export function isIpOrCidr(value: string): boolean {
  const [addr, prefix, ...rest] = value.split('/')
  if (rest.length > 0 || !addr) return false
  const family = isIP(addr)
  if (family === 0) return false
  if (prefix === undefined) return true
  if (!/^(0|[1-9]\d{0,2})$/.test(prefix)) return false
  return Number(prefix) <= (family === 4 ? 32 : 128)
}

export function checkServiceSettings(doc: ParsedDocument, s: ServiceSettingsSpec): Diagnostic[] {
  const out: Diagnostic[] = []
  const report = reporter(doc, out)
  if (s.name !== undefined && (!SERVICE_NAME_PATTERN.test(s.name) || s.name.trim() === '')) {
    const odd = [...s.name].find(ch => !/[A-Za-z0-9\s]/.test(ch))
    report(
      ['name'],
      `must be 1-50 characters of letters, digits and whitespace, not only whitespace (the cloud API's rule)${odd ? `; "${odd}" is not allowed` : ''}`
    )
  }
  const sources = new Set<string>()
  s.ipAccessList?.forEach((entry, i) => {
    if (!isIpOrCidr(entry.source))
      report(['ipAccessList', i, 'source'], `"${entry.source}" is not an IPv4/IPv6 address or CIDR`)
    if (sources.has(entry.source)) report(['ipAccessList', i, 'source'], `duplicate source "${entry.source}"`)
    sources.add(entry.source)
  })
  const endpoints = new Set<string>()
  s.privateEndpointIds?.forEach((id, i) => {
    if (endpoints.has(id)) report(['privateEndpointIds', i], `duplicate private endpoint id "${id}"`)
    endpoints.add(id)
  })
  const protocols = new Set<string>()
  s.endpoints?.forEach((e, i) => {
    if (protocols.has(e.protocol)) report(['endpoints', i, 'protocol'], `duplicate protocol "${e.protocol}"`)
    protocols.add(e.protocol)
  })
  return out
}
