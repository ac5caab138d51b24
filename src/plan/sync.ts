/**
 * What `sync` found and would write, as data: the files, the records the UI changed, added or deleted (with the
 * plan's field changes and the server's who and when), and what sync leaves as it is. The reports render it
 * (report/sync.ts); export/sync.ts makes it.
 */
import type { Change, FieldChange, Plan } from './types.js'

export interface SyncedFile {
  path: string
  /** null: a new file. */
  before: string | null
  /** null: every document of it went, so the file goes. */
  after: string | null
}

export type SyncedAction = 'updated' | 'removed' | 'added'

export interface SyncedRecord {
  address: string
  kind: string
  name: string
  action: SyncedAction
  /** The live id, where the record is on the server (a link to it in the UI). */
  id?: string
  file: string
  /** What the UI changed, as the plan said it (before: the manifest; after: the server). */
  fields: FieldChange[]
  /** Who and when, where the server's record says (alerts and saved searches carry times; dashboards nothing). */
  updatedAt?: string
  updatedBy?: string
}

export interface SyncOutcome {
  files: SyncedFile[]
  records: SyncedRecord[]
  /** What sync leaves as it is, and why. */
  left: Array<{ address: string; why: string }>
}

/** One stack's sync, as the reports render it. */
export interface SyncStackReport {
  stack: string
  outcome: SyncOutcome
  /** What the plan still holds once the files say what the server holds (nothing, unless `outcome.left` says why). */
  after: Change[]
  /** The plan the sync started from: its references name what the fields hold ids of. */
  plan?: Plan
  /** When the live state was read (ISO). */
  readAt: string
}
