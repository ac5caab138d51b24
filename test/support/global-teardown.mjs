/**
 * Jest's global teardown: removes the run's temp folder (temp-guard.mjs) and fails the run, with the names,
 * when a test left anything in it. Printed and set as the exit code rather than thrown: the names are the
 * whole message, and a stack trace of this file would not help find the test.
 */
import { leftoversMessage, releaseTempFolder } from './temp-guard.mjs'

export default function globalTeardown() {
  const left = releaseTempFolder()
  if (left.length === 0) return
  console.error(leftoversMessage(left))
  process.exitCode = 1
}
