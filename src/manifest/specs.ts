/**
 * The typed specs a manifest set holds, keyed by kind: one list per kind of the vocabulary, so what walks
 * every kind (the loader, a plan's fingerprint, a policy) walks `MANIFEST_KINDS` and cannot leave one out.
 */
import type { Located } from './rules.js'
import type {
  ConnectionSpec,
  SavedSearchSpec,
  SourceSpec,
  TeamMemberSpec,
  WebhookSpec
} from './resources-schema.js'
import type { RoleSpec } from './role-schema.js'
import type { AlertSpec, DashboardSpec, ServiceSettingsSpec } from './schema.js'
import { MANIFEST_KINDS, type ManifestKind } from './vocabulary.js'

/** Every kind's spec; each names its kind, so a kind's spec is found by its `kind`. */
export type ManifestSpec =
  | ConnectionSpec
  | SourceSpec
  | SavedSearchSpec
  | WebhookSpec
  | DashboardSpec
  | AlertSpec
  | ServiceSettingsSpec
  | TeamMemberSpec
  | RoleSpec

export type SpecOf<K extends ManifestKind> = Extract<ManifestSpec, { kind: K }>

/** The valid documents of each kind, in file order. */
export type SpecLists = { readonly [K in ManifestKind]: Located<SpecOf<K>>[] }

export function emptySpecs(): SpecLists {
  return Object.fromEntries(MANIFEST_KINDS.map(kind => [kind, []])) as unknown as SpecLists
}
