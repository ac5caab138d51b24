/**
 * Creates are not idempotent: when a create's response is lost (UnknownOutcomeError), the server may
 * have committed it. Before trying again, re-read the collection and adopt the resource if it is there.
 * One mechanism for every kind; each kind says how to create, how to re-read and what is "ours".
 */
import { UnknownOutcomeError } from '../api/errors.js'
import type { ApplyContext, OperationResult } from './kind.js'

const ATTEMPTS = 3

export async function createOnce<Created, Listed>(
  ctx: ApplyContext,
  spec: {
    what: string
    name: string
    create: () => Promise<Created>
    created: (c: Created) => OperationResult
    list: () => Promise<Listed[]>
    /** The resource this create would have made, if the server has it. */
    find: (all: Listed[]) => Listed | undefined
    adopted: (found: Listed) => OperationResult
  }
): Promise<OperationResult> {
  let lastError: unknown
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      return spec.created(await spec.create())
    } catch (e) {
      if (!(e instanceof UnknownOutcomeError)) throw e
      lastError = e
      ctx.lostResponses?.add(`${spec.what}:${spec.name}`)
      ctx.log.warn(`${e.message}: re-reading ${spec.what} before creating "${spec.name}" again`)
      const found = spec.find(await ctx.reread(spec.what, spec.list))
      if (found)
        return {
          ...spec.adopted(found),
          status: 'adopted',
          message: 'the create was committed although its response was lost'
        }
    }
  }
  throw lastError
}
