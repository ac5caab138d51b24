/** The resource kinds, in the order they are planned (later kinds refer to earlier ones). */
import { alertKind } from './alert.js'
import { dashboardKind } from './dashboard/index.js'
import type { Kind } from './kind.js'
import { serviceSettingsKind } from './service-settings.js'

/** A kind with its record types erased, so kinds of different types share one list. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKind = Kind<any, any>

export const KINDS: readonly AnyKind[] = [dashboardKind, alertKind, serviceSettingsKind]
