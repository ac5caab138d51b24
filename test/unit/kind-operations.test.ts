/**
 * What every kind's operations share (src/kinds/operations.ts, create-once.ts, ownership.ts): the delete
 * request and its "already gone", the tokens and locks that order operations across kinds, the create that
 * never creates twice after a lost response, and the ownership tag that decides what a stack may delete.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it, jest } from '@jest/globals'
import { ApiError, UnknownOutcomeError } from '../../src/api/errors.js'
import { createOnce } from '../../src/kinds/create-once.js'
import type { ApplyContext } from '../../src/kinds/kind.js'
import { alertsClearedToken, dashboardLock, deleteOperation, readyToken } from '../../src/kinds/operations.js'
import { isOwnershipTag, ownershipTag } from '../../src/kinds/ownership.js'

const lost = () => new UnknownOutcomeError({ method: 'POST', path: '/api/v2/dashboards' }, 'socket hang up')

function context() {
  const warnings: string[] = []
  const rereads: Array<{ what: string }> = []
  const ctx = {
    api: { marker: 'the api' },
    log: { info() {}, debug() {}, warn: (m: string) => warnings.push(m) },
    reread: async <T>(what: string, read: () => Promise<T[]>) => {
      rereads.push({ what })
      return read()
    }
  } as unknown as ApplyContext
  return { ctx, warnings, rereads }
}

describe('deleteOperation', () => {
  it('sends one delete of the id, through the context api; a resource already gone says so', async () => {
    const { ctx } = context()
    const request = jest.fn(async (_api: unknown, _id: string) => 'absent' as const)
    const op = deleteOperation({
      address: 'Dashboard/Cart@abc',
      label: 'delete',
      id: 'abc',
      lock: 'dashboard:abc',
      after: ['alerts-cleared:abc'],
      request,
      alreadyGone: 'already gone'
    })
    expect(op).toMatchObject({
      address: 'Dashboard/Cart@abc',
      label: 'delete',
      lock: 'dashboard:abc',
      provides: [],
      after: ['alerts-cleared:abc']
    })
    expect(await op.run(ctx)).toEqual({ status: 'applied', id: 'abc', message: 'already gone' })
    expect(request).toHaveBeenCalledTimes(1)
    expect(request).toHaveBeenCalledWith(ctx.api, 'abc')
  })

  it('a resource it deleted carries no message; no provides or after means none', async () => {
    const { ctx } = context()
    const op = deleteOperation({
      address: 'Alert/x',
      label: 'delete',
      id: 'a1',
      request: async () => 'deleted',
      alreadyGone: 'already gone'
    })
    expect(op.provides).toEqual([])
    expect(op.after).toEqual([])
    expect(await op.run(ctx)).toEqual({ status: 'applied', id: 'a1', message: undefined })
  })
})

describe('the tokens and locks that order operations', () => {
  it('name their dashboard, and never collide across dashboards or across purposes', () => {
    const all = [
      readyToken('Checkout'),
      readyToken('Cart'),
      alertsClearedToken('Checkout'),
      alertsClearedToken('Cart'),
      dashboardLock('Checkout'),
      dashboardLock('Cart')
    ]
    expect(new Set(all).size).toBe(all.length)
    for (const t of all) expect(t).toMatch(/(Checkout|Cart)$/)
  })
})

describe('createOnce', () => {
  const spec = (create: () => Promise<{ id: string }>, listed: Array<{ id: string; name: string }> = []) => ({
    what: 'dashboards' as const,
    name: 'Checkout',
    create,
    created: (c: { id: string }) => ({ status: 'applied' as const, id: c.id }),
    list: async () => listed,
    find: (all: Array<{ id: string; name: string }>) => all.find(l => l.name === 'Checkout'),
    adopted: (found: { id: string }) => ({ status: 'applied' as const, id: found.id, message: 'ignored' })
  })

  it('creates once when the response arrives, without re-reading', async () => {
    const { ctx, rereads } = context()
    const create = jest.fn(async () => ({ id: 'new-1' }))
    expect(await createOnce(ctx, spec(create))).toEqual({ status: 'applied', id: 'new-1' })
    expect(create).toHaveBeenCalledTimes(1)
    expect(rereads).toEqual([])
  })

  it('after a lost response, adopts what the server committed instead of creating again', async () => {
    const { ctx, warnings, rereads } = context()
    const create = jest.fn(async (): Promise<{ id: string }> => Promise.reject(lost()))
    const result = await createOnce(ctx, spec(create, [{ id: 'committed-1', name: 'Checkout' }]))
    expect(result).toEqual({
      status: 'adopted',
      id: 'committed-1',
      message: 'the create was committed although its response was lost'
    })
    expect(create).toHaveBeenCalledTimes(1)
    expect(rereads).toEqual([{ what: 'dashboards' }])
    expect(warnings).toEqual([`${lost().message}: re-reading dashboards before creating "Checkout" again`])
  })

  it('tries three times in all when the server never has it, then fails with the last error', async () => {
    const { ctx, rereads } = context()
    const errors = [lost(), lost(), lost()]
    const create = jest.fn(async (): Promise<{ id: string }> => Promise.reject(errors.shift()))
    const last = errors[2]
    await expect(createOnce(ctx, spec(create))).rejects.toBe(last)
    expect(create).toHaveBeenCalledTimes(3)
    expect(rereads).toHaveLength(3)
  })

  it('a create the server refused is not retried or re-read', async () => {
    const { ctx, rereads } = context()
    const refused = new ApiError({ status: 400, method: 'POST', path: '/api/v2/dashboards' }, 'bad tile')
    const create = jest.fn(async (): Promise<{ id: string }> => Promise.reject(refused))
    await expect(createOnce(ctx, spec(create))).rejects.toBe(refused)
    expect(create).toHaveBeenCalledTimes(1)
    expect(rereads).toEqual([])
  })
})

describe('the ownership tag', () => {
  it('keeps a stack whose tag just fits as it is, and hashes one character more into exactly 32', () => {
    const fits = 'x'.repeat(32 - 'obsdeploy:'.length)
    expect(ownershipTag(fits)).toBe(`obsdeploy:${fits}`)
    const over = `${fits}y`
    const hash = createHash('sha256').update(over).digest('hex').slice(0, 8)
    expect(ownershipTag(over)).toBe(`obsdeploy:${'x'.repeat(13)}~${hash}`)
    expect(ownershipTag(over)).toHaveLength(32)
  })

  it('is recognized by its prefix only', () => {
    expect(isOwnershipTag('obsdeploy:shop')).toBe(true)
    expect(isOwnershipTag('team:obsdeploy:shop')).toBe(false)
    expect(isOwnershipTag('obsdeploy')).toBe(false)
  })
})
