/**
 * The resource kinds, in the order they are planned and applied: later kinds refer to earlier ones
 * (Connection -> Source -> SavedSearch / Webhook -> Dashboard -> Alert), and deletes run in reverse.
 */
import { alertKind } from './alert.js'
import { connectionKind } from './connection.js'
import { dashboardKind } from './dashboard/index.js'
import type { Kind } from './kind.js'
import type { ResourceKind } from '../plan/types.js'
import { roleKind } from './role.js'
import { savedSearchKind } from './saved-search.js'
import { serviceSettingsKind } from './service-settings.js'
import { sourceKind } from './source.js'
import { teamMemberKind } from './team-member.js'
import { webhookKind } from './webhook.js'

/** A kind with its record types erased, so kinds of different types share one list. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKind = Kind<any, any>

export const KINDS: readonly AnyKind[] = [
  connectionKind,
  sourceKind,
  savedSearchKind,
  webhookKind,
  dashboardKind,
  alertKind,
  serviceSettingsKind,
  // Refer to nothing and nothing refers to them.
  teamMemberKind,
  roleKind
]

/** Each kind by its name. */
export const KINDS_BY_NAME: ReadonlyMap<ResourceKind, AnyKind> = new Map(KINDS.map(k => [k.kind, k]))
