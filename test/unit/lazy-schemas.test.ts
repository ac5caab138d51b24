/**
 * The schemas of the kinds most repositories do not hold (Connection, Source, SavedSearch, Webhook,
 * ServiceSettings) and the self-hosted Alert are built on first use, not at start-up. A run without them
 * never builds them; the first document of such a kind builds its schema, which then validates it fully
 * (errors at file, line and column), and is built once however many documents use it.
 */
import { describe, expect, it } from '@jest/globals'
import { validateText } from '../../src/manifest/load.js'
import { builtOnce } from '../../src/manifest/once.js'
import { manifestSchema } from '../../src/manifest/schema.js'
import { lines, oneTile } from '../support/manifest-text.js'

const dashboard = oneTile('    series: [{ type: time, source: Logs, aggFn: count }]')
const managedAlert = lines(
  'kind: Alert',
  'name: Errors high',
  'dashboard: D',
  'tile: T',
  'threshold: 10',
  'thresholdType: above',
  'interval: 5m',
  'channel: { type: email, emailRecipients: [ops@example.com] }'
)
const errors = (set: ReturnType<typeof validateText>) =>
  set.diagnostics
    .filter(d => d.severity === 'error')
    .map(d => `${d.line}:${d.column} ${d.field}: ${d.message}`)

// One test: the order is the point (this file's modules are fresh, so nothing was built before it).
describe('schemas built on first use', () => {
  it('builds each lazy schema only when a document needs it, then validates with it, once', () => {
    expect(builtOnce).toEqual([])

    // Dashboards and a managed-mode alert: none of the lazy schemas.
    const managed = validateText('a.yaml', `${dashboard}---\n${managedAlert}`, 'managed')
    expect(errors(managed)).toEqual([])
    expect(managed.specs.Dashboard).toHaveLength(1)
    expect(managed.specs.Alert).toHaveLength(1)
    expect(builtOnce).toEqual([])

    // The same alert in self-hosted mode: its own schema, which refuses email channels in its own words.
    const selfHosted = validateText('a.yaml', `${dashboard}---\n${managedAlert}`, 'self-hosted')
    expect(builtOnce).toEqual(['self-hosted Alert schema'])
    expect(errors(selfHosted)).toEqual([
      '18:18 channel.type: must be one of webhook, got "email"',
      expect.stringMatching(/^18:25 channel\.emailRecipients: unknown field "emailRecipients"/)
    ])

    // A Webhook with a wrong service and a missing url: the resource schemas, with places.
    const webhook = validateText(
      'w.yaml',
      'kind: Webhook\nname: hook\nservice: carrier-pigeon\n',
      'self-hosted'
    )
    expect(builtOnce).toEqual(['self-hosted Alert schema', 'resource schemas'])
    expect(errors(webhook)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^3:10 service: /),
        expect.stringMatching(/^1:1 url: is required/)
      ])
    )
    expect(webhook.specs.Webhook).toEqual([])

    // Service settings (managed mode): their schema, which types what it accepts.
    const service = validateText(
      's.yaml',
      'kind: ServiceSettings\nreleaseChannel: fast\nipAccessList:\n  - { source: 10.0.0.0/8 }\n',
      'managed'
    )
    expect(errors(service)).toEqual([])
    expect(service.specs.ServiceSettings.map(s => s.spec.releaseChannel)).toEqual(['fast'])
    expect(builtOnce).toEqual(['self-hosted Alert schema', 'resource schemas', 'ServiceSettings schema'])

    // More documents of the same kinds build nothing more; the editors' union is built when asked for.
    validateText('w2.yaml', 'kind: Connection\nname: ch\nhost: http://ch:8123\nusername: u\n', 'self-hosted')
    validateText('a2.yaml', `${dashboard}---\n${managedAlert}`, 'self-hosted')
    expect(builtOnce).toHaveLength(3)

    // Roles (managed mode): their own schema, built on first use too.
    const roles = validateText('r.yaml', 'kind: Role\nname: Ops\npermissions: []\n', 'managed')
    expect(errors(roles)).toEqual([])
    expect(builtOnce).toEqual([
      'self-hosted Alert schema',
      'resource schemas',
      'ServiceSettings schema',
      'Role schema'
    ])
    expect(manifestSchema().options).toHaveLength(9)
    expect(
      manifestSchema().safeParse({ kind: 'Webhook', name: 'h', service: 'generic', url: 'https://h.example' })
        .success
    ).toBe(true)
    expect(manifestSchema()).toBe(manifestSchema())
    expect(builtOnce).toHaveLength(5)
  })
})
