/**
 * What an update sends back as read (src/kinds/returned-fields.ts `carriedFields`), and the notice that
 * names it: only carried fields the update does not set itself, that hold a value, and whose sibling fields
 * the update leaves as they are. test/unit/returned-fields.test.ts checks the tables against the servers.
 */
import { describe, expect, it } from '@jest/globals'
import {
  ALERT_FIELDS,
  carriedFields,
  keptSettingsNotice,
  TILE_CONFIG_FIELDS,
  UNKNOWN_CONFIG_FIELD,
  type FieldRule
} from '../../src/kinds/returned-fields.js'

const RULES: Record<string, FieldRule> = {
  shown: { treatment: 'compared' },
  id: { treatment: 'identity' },
  state: { treatment: 'untouched' },
  color: { treatment: 'carried' },
  palette: { treatment: 'carried', keptWhileSame: ['displayType', 'select'] }
}

describe('carriedFields', () => {
  it('keeps carried fields with a value that the update does not set; never compared, identity or untouched ones', () => {
    const live = {
      shown: 1,
      id: 'x',
      state: 'ok',
      color: 'red',
      palette: ['a'],
      gone: null,
      empty: undefined
    }
    expect(carriedFields(live, {}, RULES, () => false)).toStrictEqual({ color: 'red', palette: ['a'] })
    expect(carriedFields(live, { color: 'blue' }, RULES, () => false)).toStrictEqual({ palette: ['a'] })
    // Sent as undefined is still set by the update.
    expect(carriedFields(live, { palette: undefined }, RULES, () => false)).toStrictEqual({ color: 'red' })
  })

  it('a carried field that holds null or nothing is not sent back', () => {
    const carried = { treatment: 'carried' } as const
    expect(carriedFields({ a: null, b: undefined, c: 0 }, {}, {}, () => false, carried)).toStrictEqual({
      c: 0
    })
  })

  it('drops a field when the update changes any one of the fields it depends on', () => {
    const live = { color: 'red', palette: ['a'] }
    const differs = (changed: string[]) => (field: string) => changed.includes(field)
    expect(carriedFields(live, {}, RULES, differs(['select']))).toStrictEqual({ color: 'red' })
    expect(carriedFields(live, {}, RULES, differs(['displayType']))).toStrictEqual({ color: 'red' })
    expect(carriedFields(live, {}, RULES, differs(['other']))).toStrictEqual({ color: 'red', palette: ['a'] })
  })

  it('a field no table lists: untouched unless the caller says how to treat it', () => {
    expect(carriedFields({ future: 1 }, {}, ALERT_FIELDS, () => false)).toStrictEqual({})
    expect(
      carriedFields({ future: 1 }, {}, TILE_CONFIG_FIELDS, () => false, UNKNOWN_CONFIG_FIELD)
    ).toStrictEqual({
      future: 1
    })
    expect(
      carriedFields({ future: 1 }, {}, TILE_CONFIG_FIELDS, f => f === 'displayType', UNKNOWN_CONFIG_FIELD)
    ).toStrictEqual({})
  })
})

describe('keptSettingsNotice', () => {
  it('a plan notice at the manifest, naming each kept setting', () => {
    expect(
      keptSettingsNotice('dashboard "Ops"', ['tiles["A"].config.future', 'tiles["B"].config.x'], {
        file: 'd.yaml',
        line: 4,
        column: 3
      })
    ).toStrictEqual({
      stage: 'plan',
      severity: 'notice',
      message:
        'dashboard "Ops" has settings the manifest language cannot express yet (set in the UI?), kept as they are: an update sends them back unchanged: tiles["A"].config.future, tiles["B"].config.x',
      file: 'd.yaml',
      line: 4,
      column: 3
    })
  })
})
