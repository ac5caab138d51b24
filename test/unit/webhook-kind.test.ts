/**
 * The Webhook kind (src/kinds/webhook.ts) planned from manifests and applied to an in-memory server that keeps
 * omitted headers and query parameters unless the url or service changes: the url compared but only shown as
 * changed, the write-only headers, query parameters and incident.io body compared by the fingerprints the
 * registry keeps, what each update sends (and what it leaves for the server to keep), the notes of what the
 * server will clear, the fingerprints recorded after each write, and the twin another stack's webhook refuses.
 */
import { describe, expect, it } from '@jest/globals'
import { SHOP_KEY } from '../support/shop-stack.js'
import { webhookKind } from '../../src/kinds/webhook.js'
import { actions, apply, change, plan, RecordStore, settings, TAG } from '../support/record-store.js'

const SECRETS = {
  URL: 'https://hooks.example.com/a',
  URL2: 'https://hooks.example.com/b',
  TOKEN: 'token-1',
  TOKEN2: 'token-2',
  KEY: 'k'
}
const REGISTRY_NOTE =
  'the registry dashboard "obsdeploy registry (stack shop)" records its ownership and write-only fingerprints'

const webhook = (service: string, ...more: string[]) =>
  ['kind: Webhook', 'name: oncall', `service: ${service}`, 'url: ${secret.URL}', ...more, ''].join('\n')
const generic = (...more: string[]) => webhook('generic', ...more)
const HEADERS = 'headers: { Authorization: "${secret.TOKEN}" }'
const PARAMS = 'queryParams: { key: "${secret.TOKEN}" }'

const planned = (store: RecordStore, yaml: string, secrets = SECRETS, s = settings()) =>
  plan(store, yaml, secrets, s)
const fieldsOf = (store: RecordStore, yaml: string, secrets = SECRETS) =>
  change(planned(store, yaml, secrets), 'Webhook/oncall').fields
const entry = (store: RecordStore, id: string) => planned(store, '').outcome.registry.entry('Webhook', id)

/** A store with one generic webhook this stack owns, whose headers (and query parameters) it last sent. */
function owned(
  over: { service?: string; writeOnly?: Record<string, unknown>; stored?: Record<string, unknown> } = {}
) {
  const writeOnly = over.writeOnly ?? { headers: { Authorization: SECRETS.TOKEN } }
  const store = new RecordStore({
    webhooks: [
      {
        id: 'w1',
        name: 'oncall',
        service: over.service ?? 'generic',
        url: SECRETS.URL,
        ...writeOnly,
        ...over.stored
      }
    ]
  })
  return store.owns({
    Webhook: {
      w1: {
        name: 'oncall',
        writeOnly: Object.fromEntries(Object.entries(writeOnly).map(([k, v]) => [k, SHOP_KEY.fingerprint(v)]))
      }
    }
  })
}

describe('creating a webhook', () => {
  it('sends every field, the write-only ones included; the registry keeps their fingerprints; the next plan is a no-op', async () => {
    const store = new RecordStore()
    const yaml = generic('description: Pages on-call', 'body: "{}"', HEADERS, PARAMS)
    const p = planned(store, yaml)
    expect(change(p, 'Webhook/oncall').fields).toEqual([
      { path: 'body', after: '{}' },
      { path: 'description', after: 'Pages on-call' },
      { path: 'headers', after: '(write-only: unknown, will be sent)' },
      { path: 'name', after: 'oncall' },
      { path: 'owner', after: TAG },
      { path: 'queryParams', after: '(write-only: unknown, will be sent)' },
      { path: 'service', after: 'generic' },
      { path: 'url', after: '(secret)' }
    ])
    await apply(store, p)
    expect(store.sent()).toStrictEqual([
      {
        method: 'POST',
        collection: 'webhooks',
        body: {
          name: 'oncall',
          service: 'generic',
          url: SECRETS.URL,
          description: 'Pages on-call',
          body: '{}',
          headers: { Authorization: SECRETS.TOKEN },
          queryParams: { key: SECRETS.TOKEN }
        }
      }
    ])
    const id = store.find('webhooks', 'oncall')!.id
    expect(Object.keys(entry(store, id)!.writeOnly!).sort()).toEqual(['headers', 'queryParams'])
    expect(actions(planned(store, yaml))).toEqual([])
  })

  it('without the optional fields: none is sent, and the registry records the name alone', async () => {
    const store = new RecordStore()
    await apply(store, planned(store, generic()))
    expect(store.sent()).toStrictEqual([
      {
        method: 'POST',
        collection: 'webhooks',
        body: { name: 'oncall', service: 'generic', url: SECRETS.URL }
      }
    ])
    expect(entry(store, store.find('webhooks', 'oncall')!.id)).toStrictEqual({ name: 'oncall' })
    expect(actions(planned(store, generic()))).toEqual([])
  })

  it('an incident.io body is write-only: sent, fingerprinted, compared by fingerprint, sent again when it changes', async () => {
    const store = new RecordStore()
    await apply(store, planned(store, webhook('incidentio', 'body: \'{"a": 1}\'')))
    const id = store.find('webhooks', 'oncall')!.id
    expect(store.sent()[0]!.body).toStrictEqual({
      name: 'oncall',
      service: 'incidentio',
      url: SECRETS.URL,
      body: '{"a": 1}'
    })
    expect(Object.keys(entry(store, id)!.writeOnly!)).toEqual(['body'])
    expect(actions(planned(store, webhook('incidentio', 'body: \'{"a": 1}\'')))).toEqual([])
    const p = planned(store, webhook('incidentio', 'body: \'{"a": 2}\''))
    expect(change(p, 'Webhook/oncall').fields).toEqual([
      { path: 'body', before: '(write-only: set)', after: '(write-only: changed)' }
    ])
    expect(change(p, 'Webhook/oncall').notes).toEqual([REGISTRY_NOTE])
    await apply(store, p)
    expect(store.sent()[1]).toStrictEqual({
      method: 'PUT',
      collection: 'webhooks',
      id,
      body: { name: 'oncall', service: 'incidentio', url: SECRETS.URL, body: '{"a": 2}' }
    })
    expect(actions(planned(store, webhook('incidentio', 'body: \'{"a": 2}\'')))).toEqual([])
  })

  it("a lost create response: the re-read takes this stack's webhook of that name and service, not another stack's", async () => {
    const store = new RecordStore({
      webhooks: [
        { id: 'a-slack', name: 'oncall', service: 'slack', url: 'https://hooks.slack.com/x' },
        { id: 'a-other', name: 'other', service: 'generic', url: SECRETS.URL }
      ]
    }).owns({ Webhook: { 'a-slack': { name: 'oncall' } } }, 'billing', 'obsdeploy:billing')
    store.loseCreateResponses = 1
    const s = settings({ siblingTags: ['obsdeploy:billing'] })
    const p = planned(store, generic(), SECRETS, s)
    expect(change(p, 'Webhook/oncall').notes[0]).toBe(
      'a new webhook: webhook a-slack of the same name belongs to another stack of this repository (obsdeploy:billing) and stays theirs'
    )
    const result = await apply(store, p, s)
    const mine = store.records.webhooks.find(w => w.service === 'generic' && w.name === 'oncall')!
    expect(result.outcomes.map(o => [o.status, o.id])).toEqual([['adopted', mine.id]])
    expect(store.sent().filter(r => r.method === 'POST')).toHaveLength(1)
  })
})

describe('planning an owned webhook', () => {
  it('the url is compared but never shown: changed, it is marked so, and the headers are sent again with it', async () => {
    const store = owned()
    expect(fieldsOf(store, generic(HEADERS))).toEqual([])
    const moved = { ...SECRETS, URL: SECRETS.URL2 }
    const p = planned(store, generic(HEADERS), moved)
    expect(change(p, 'Webhook/oncall').fields).toEqual([
      { path: 'url', before: '(secret)', after: '(secret: changed)' }
    ])
    expect(change(p, 'Webhook/oncall').notes).toEqual([
      'its url or service changes, and the server then clears queryParams the manifest does not set (any set outside it are lost)'
    ])
    expect(JSON.stringify(p.outcome.plan)).not.toContain(SECRETS.URL2)
    await apply(store, p)
    expect(store.sent()).toStrictEqual([
      {
        method: 'PUT',
        collection: 'webhooks',
        id: 'w1',
        body: {
          name: 'oncall',
          service: 'generic',
          url: SECRETS.URL2,
          headers: { Authorization: SECRETS.TOKEN }
        }
      }
    ])
    expect(store.find('webhooks', 'oncall')!.headers).toEqual({ Authorization: SECRETS.TOKEN })
    expect(Object.keys(entry(store, 'w1')!.writeOnly!)).toEqual(['headers'])
    expect(actions(planned(store, generic(HEADERS), moved))).toEqual([])
  })

  it('a new service is a new destination too: both maps are noted as cleared when the manifest sets neither', () => {
    const store = owned({ writeOnly: {} })
    const p = planned(store, webhook('incidentio'))
    expect(change(p, 'Webhook/oncall').fields).toEqual([
      { path: 'service', before: 'generic', after: 'incidentio' }
    ])
    expect(change(p, 'Webhook/oncall').notes).toEqual([
      'its url or service changes, and the server then clears headers and queryParams the manifest does not set (any set outside it are lost)',
      'an incident.io body is write-only: one set outside the manifest would be cleared by this update'
    ])
    // Maps the manifest sets are sent again, known or not: only the other one is noted.
    const headers = planned(store, webhook('incidentio', HEADERS, 'body: b'))
    expect(change(headers, 'Webhook/oncall').notes).toEqual([
      REGISTRY_NOTE,
      'its url or service changes, and the server then clears queryParams the manifest does not set (any set outside it are lost)'
    ])
  })

  it('a moved url clears the fingerprints of the maps it did not send, and the body’s', async () => {
    const store = owned({ writeOnly: { headers: { a: 'x' }, queryParams: { key: 'k' } } })
    const p = planned(store, generic(PARAMS.replace('TOKEN', 'KEY')), { ...SECRETS, URL: SECRETS.URL2 })
    expect(change(p, 'Webhook/oncall').fields).toEqual([
      { path: 'headers', before: '(write-only: set)' },
      { path: 'url', before: '(secret)', after: '(secret: changed)' }
    ])
    // The manifest sets the query parameters and clears the headers itself: nothing else is lost.
    expect(change(p, 'Webhook/oncall').notes).toEqual([REGISTRY_NOTE])
    await apply(store, p)
    expect(store.sent()[0]!.body).toStrictEqual({
      name: 'oncall',
      service: 'generic',
      url: SECRETS.URL2,
      headers: {},
      queryParams: { key: 'k' }
    })
    expect(Object.keys(entry(store, 'w1')!.writeOnly!)).toEqual(['queryParams'])
  })

  it('changed headers are sent alone: unchanged query parameters are left for the server to keep', async () => {
    const store = owned({
      writeOnly: { headers: { Authorization: SECRETS.TOKEN }, queryParams: { key: SECRETS.TOKEN } }
    })
    const p = planned(store, generic(HEADERS, PARAMS), { ...SECRETS, TOKEN: SECRETS.TOKEN2 })
    expect(change(p, 'Webhook/oncall').fields).toEqual([
      { path: 'headers', before: '(write-only: set)', after: '(write-only: changed)' },
      { path: 'queryParams', before: '(write-only: set)', after: '(write-only: changed)' }
    ])
    const only = planned(store, generic(HEADERS.replace('TOKEN', 'TOKEN2'), PARAMS))
    expect(change(only, 'Webhook/oncall').fields).toEqual([
      { path: 'headers', before: '(write-only: set)', after: '(write-only: changed)' }
    ])
    expect(change(only, 'Webhook/oncall').notes).toEqual([REGISTRY_NOTE])
    await apply(store, only)
    expect(store.sent()[0]!.body).toStrictEqual({
      name: 'oncall',
      service: 'generic',
      url: SECRETS.URL,
      headers: { Authorization: SECRETS.TOKEN2 }
    })
    expect(store.find('webhooks', 'oncall')!.queryParams).toEqual({ key: SECRETS.TOKEN })
    expect(actions(planned(store, generic(HEADERS.replace('TOKEN', 'TOKEN2'), PARAMS)))).toEqual([])
  })

  it('headers the manifest drops are cleared with `{}`, and their fingerprint forgotten', async () => {
    const store = owned()
    const p = planned(store, generic())
    expect(change(p, 'Webhook/oncall').fields).toEqual([{ path: 'headers', before: '(write-only: set)' }])
    await apply(store, p)
    expect(store.sent()[0]!.body).toStrictEqual({
      name: 'oncall',
      service: 'generic',
      url: SECRETS.URL,
      headers: {}
    })
    expect(entry(store, 'w1')).toStrictEqual({ name: 'oncall' })
    expect(actions(planned(store, generic()))).toEqual([])
  })

  it('a description change sends the readable fields only: the server keeps the headers, the registry is not written', async () => {
    const store = owned({ stored: { description: 'old', body: 'b' } })
    const p = planned(store, generic(HEADERS, 'description: new', 'body: b'))
    expect(change(p, 'Webhook/oncall').fields).toEqual([{ path: 'description', before: 'old', after: 'new' }])
    expect(change(p, 'Webhook/oncall').notes).toEqual([])
    await apply(store, p)
    expect(store.sent()).toStrictEqual([
      {
        method: 'PUT',
        collection: 'webhooks',
        id: 'w1',
        body: { name: 'oncall', service: 'generic', url: SECRETS.URL, description: 'new', body: 'b' }
      }
    ])
    expect(store.requests.filter(r => r.collection === 'dashboards')).toEqual([])
  })

  it('a generic body is read back and compared as it is; an incident.io one the server returns is ignored', () => {
    const store = owned({ writeOnly: {}, stored: { body: 'live body' } })
    expect(fieldsOf(store, generic('body: "other"'))).toEqual([
      { path: 'body', before: 'live body', after: 'other' }
    ])
    const incident = owned({ service: 'incidentio', writeOnly: { body: 'sent' } })
    incident.records.webhooks[0]!.body = 'returned anyway'
    expect(fieldsOf(incident, webhook('incidentio', 'body: sent'))).toEqual([])
  })

  it('an incident.io update without a body warns that one set outside the manifest is cleared, unless the stack sent one', async () => {
    const store = owned({ service: 'incidentio', writeOnly: {}, stored: { description: 'old' } })
    const p = planned(store, webhook('incidentio', 'description: new'))
    expect(change(p, 'Webhook/oncall').notes).toEqual([
      'an incident.io body is write-only: one set outside the manifest would be cleared by this update'
    ])
    await apply(store, p)
    expect(store.sent()[0]!.body).toStrictEqual({
      name: 'oncall',
      service: 'incidentio',
      url: SECRETS.URL,
      description: 'new'
    })
    // Nothing write-only was sent or had a fingerprint: the registry is not written.
    expect(store.requests.filter(r => r.collection === 'dashboards')).toEqual([])
    expect(actions(planned(store, webhook('incidentio', 'description: old')))).toEqual([
      'Webhook/oncall update'
    ])
    // A body the manifest sets, or one the stack sent and the manifest dropped, is no surprise.
    expect(
      change(planned(store, webhook('incidentio', 'description: x', 'body: b')), 'Webhook/oncall').notes
    ).toEqual([REGISTRY_NOTE])
    const sent = owned({ service: 'incidentio', writeOnly: { body: 'b' }, stored: { description: 'old' } })
    const dropped = planned(sent, webhook('incidentio', 'description: new'))
    expect(change(dropped, 'Webhook/oncall').fields).toEqual([
      { path: 'body', before: '(write-only: set)' },
      { path: 'description', before: 'old', after: 'new' }
    ])
    expect(change(dropped, 'Webhook/oncall').notes).toEqual([REGISTRY_NOTE])
    await apply(sent, dropped)
    expect(entry(sent, 'w1')).toStrictEqual({ name: 'oncall' })
  })

  it('an incident.io body fingerprint is forgotten when the body is no longer write-only or no longer sent', async () => {
    // Now generic: the server returns its body, so it is compared as read, not by fingerprint.
    const generic = owned({ service: 'incidentio', writeOnly: { body: 'b' } })
    await apply(generic, planned(generic, webhook('generic', 'body: b')))
    expect(generic.sent()[0]!.body).toStrictEqual({
      name: 'oncall',
      service: 'generic',
      url: SECRETS.URL,
      body: 'b'
    })
    expect(entry(generic, 'w1')).toStrictEqual({ name: 'oncall' })
    expect(actions(planned(generic, webhook('generic', 'body: b')))).toEqual([])
    // Still incident.io, moved to another url, the body dropped: the PUT clears it, and its fingerprint goes.
    const moved = owned({ service: 'incidentio', writeOnly: { body: 'b' } })
    await apply(moved, planned(moved, webhook('incidentio'), { ...SECRETS, URL: SECRETS.URL2 }))
    expect(moved.sent()[0]!.body).toStrictEqual({ name: 'oncall', service: 'incidentio', url: SECRETS.URL2 })
    expect(entry(moved, 'w1')).toStrictEqual({ name: 'oncall' })
  })

  it('an unchanged incident.io webhook is a no-op without notes; adopting one changes only the owner, without the body note', () => {
    const store = owned({ service: 'incidentio', writeOnly: {} })
    const p = planned(store, webhook('incidentio'))
    expect(change(p, 'Webhook/oncall')).toMatchObject({ action: 'noop', notes: [] })
    const unowned = new RecordStore({
      webhooks: [{ id: 'w1', name: 'oncall', service: 'incidentio', url: SECRETS.URL }]
    })
    expect(change(planned(unowned, webhook('incidentio', 'adopt: true')), 'Webhook/oncall')).toMatchObject({
      action: 'update',
      fields: [{ path: 'owner', after: TAG }],
      notes: [
        'adopts existing webhook w1: this stack takes ownership (recorded in its registry dashboard "obsdeploy registry (stack shop)")',
        REGISTRY_NOTE + ' (the apply creates that dashboard)'
      ]
    })
  })
})

describe('adoption and the other stacks', () => {
  it('adopting one sends nothing when only the owner changes; the registry records it', async () => {
    const store = new RecordStore({
      webhooks: [{ id: 'w1', name: 'oncall', service: 'generic', url: SECRETS.URL }]
    })
    const p = planned(store, generic('adopt: true'))
    expect(change(p, 'Webhook/oncall').fields).toEqual([{ path: 'owner', after: TAG }])
    await apply(store, p)
    expect(store.sent()).toEqual([])
    expect(entry(store, 'w1')).toStrictEqual({ name: 'oncall' })
    expect(actions(planned(store, generic()))).toEqual([])
  })

  it('adopting one with headers: they are unknown, so they are sent once and fingerprinted', async () => {
    const store = new RecordStore({
      webhooks: [{ id: 'w1', name: 'oncall', service: 'generic', url: SECRETS.URL }]
    })
    const p = planned(store, generic('adopt: true', HEADERS))
    expect(change(p, 'Webhook/oncall').fields).toEqual([
      { path: 'headers', after: '(write-only: unknown, will be sent)' },
      { path: 'owner', after: TAG }
    ])
    await apply(store, p)
    expect(store.sent()[0]!.body).toStrictEqual({
      name: 'oncall',
      service: 'generic',
      url: SECRETS.URL,
      headers: { Authorization: SECRETS.TOKEN }
    })
    expect(Object.keys(entry(store, 'w1')!.writeOnly!)).toEqual(['headers'])
    expect(actions(planned(store, generic(HEADERS)))).toEqual([])
  })

  it('a rename through an id pin is recorded under the new name', async () => {
    const store = owned({ writeOnly: {} })
    const yaml = generic('id: w1').replace('name: oncall', 'name: pager')
    await apply(store, planned(store, yaml))
    expect(store.sent().map(r => [r.method, r.body?.name])).toEqual([['PUT', 'pager']])
    expect(entry(store, 'w1')).toStrictEqual({ name: 'pager' })
  })

  it("another stack's webhook of the same name and service refuses the create; of another service it does not", () => {
    const store = new RecordStore({
      webhooks: [{ id: 'w9', name: 'oncall', service: 'generic', url: SECRETS.URL }]
    }).owns({ Webhook: { w9: { name: 'oncall' } } }, 'billing', 'obsdeploy:billing')
    const s = settings({ siblingTags: ['obsdeploy:billing'] })
    expect(planned(store, generic(), SECRETS, s).diagnostics).toEqual([
      'error name: stack "shop" cannot create webhook "oncall": another stack of this repository (obsdeploy:billing) has one (id w9), and the server allows one webhook of a service and name in a team (it answers "A webhook with this service and name already exists"): give one of them another name or another service'
    ])
    expect(planned(store, webhook('incidentio'), SECRETS, s).diagnostics).toEqual([])
  })

  it('a webhook no manifest declares is deleted with prune, and forgotten', async () => {
    const store = owned()
    const p = planned(store, '')
    expect(change(p, 'Webhook/oncall@w1').action).toBe('delete')
    await apply(store, p)
    expect(store.sent()).toEqual([{ method: 'DELETE', collection: 'webhooks', id: 'w1' }])
    expect(entry(store, 'w1')).toBeUndefined()
  })

  it('reads the webhooks list', async () => {
    const store = owned()
    expect(await webhookKind.live!.read(store.api(), { service: false })).toEqual(store.live().Webhook)
  })
})
