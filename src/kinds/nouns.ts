/**
 * Each kind in words, singular and plural, for messages and reports. A record over the kinds, so a kind without
 * its nouns does not compile; each Kind carries its own (`Kind.nouns`), and the plan hands them to reports.
 */
import type { ResourceKind } from '../plan/types.js'

export type Nouns = readonly [one: string, many: string]

export const NOUNS: { readonly [K in ResourceKind]: Nouns } = {
  Connection: ['connection', 'connections'],
  Source: ['data source', 'data sources'],
  SavedSearch: ['saved search', 'saved searches'],
  Webhook: ['webhook', 'webhooks'],
  Dashboard: ['dashboard', 'dashboards'],
  Alert: ['alert', 'alerts'],
  ServiceSettings: ['service setting', 'service settings'],
  TeamMember: ['team member', 'team members'],
  Role: ['role', 'roles']
}

/** A kind in words: `data source`, `saved searches`. */
export const wordFor = (kind: ResourceKind, plural = false): string => NOUNS[kind][plural ? 1 : 0]
