/** What an apply did, per change: the reporters and the exit code read it. */
import type { Action, ResourceKind } from '../plan/types.js'

export type OutcomeStatus =
  /** The request succeeded. */
  | 'applied'
  /** A create whose response was lost: the resource was found by re-reading and adopted, not duplicated. */
  | 'adopted'
  /** The request failed; `error` says why, in the server's words. */
  | 'failed'
  /** Not attempted, because something it depends on failed. */
  | 'skipped'

export interface ApplyOutcome {
  address: string
  kind: ResourceKind
  name: string
  action: Action
  status: OutcomeStatus
  id?: string
  message?: string
  /** The server's request id, when it gave one (managed mode). */
  requestId?: string
  /** For ServiceSettings: the service record the PATCH returned. */
  result?: unknown
}

export interface ApplyResult {
  outcomes: ApplyOutcome[]
  /** false when any change failed or was skipped: the run exits non-zero and a rerun converges. */
  complete: boolean
  /** ServiceSettings re-read after the PATCH: differences that remain (empty when converged). */
  convergence?: { converged: boolean; remaining: string[] }
  /** Copies of created records that the apply found at its end and left (apply/copies.ts): each an error. */
  copies?: Array<{ address: string; message: string }>
}

/**
 * One step of an apply, for whoever shows progress (the apply itself only reports it): a change's first
 * request is about to go (`start`), or all of its requests have settled (`end`, with its status).
 */
export interface ApplyProgress {
  event: 'start' | 'end'
  address: string
  kind: ResourceKind
  name: string
  action: Action
  /** On `end`. */
  status?: OutcomeStatus
  /** Changes settled so far, of `total`. */
  done: number
  total: number
  /**
   * What is left, estimated from the plan (apply/requests.ts): the requests still to send, and how long they take at
   * the run's pace (absent without one). Absent when the plan has no estimate (a plan file older than estimates).
   */
  left?: { requests: number; ms?: number }
  /** With many stacks in one run: the stack whose change it is. */
  stack?: string
}
