/**
 * The fast YAML path's values (src/manifest/fast-yaml.ts): each string is one of its own, not a view into
 * the parser's copy of the text, and nothing else about the values changes.
 */
import { describe, expect, it } from '@jest/globals'
import { fastValues } from '../../src/manifest/fast-yaml.js'
import { YAML_LIMITS } from '../../src/manifest/yaml.js'

const values = (text: string) => fastValues('m.yaml', text, 8, YAML_LIMITS.maxDepth)

describe('the fast path', () => {
  it('reads long and short strings, numbers and nulls as written', () => {
    const text = [
      'kind: Dashboard',
      'name: "a name longer than thirteen characters"',
      'tiles:',
      '  - name: t',
      '    where: "service:api AND level:error"',
      '    w: 6',
      '    groupBy: [service, "a much longer group key"]',
      '    note: ~',
      ''
    ].join('\n')
    expect(values(text)).toEqual([
      {
        kind: 'Dashboard',
        name: 'a name longer than thirteen characters',
        tiles: [
          {
            name: 't',
            where: 'service:api AND level:error',
            w: 6,
            groupBy: ['service', 'a much longer group key'],
            note: null
          }
        ]
      }
    ])
  })

  it('keeps a field named __proto__ a field, and the mapping’s prototype as it was', () => {
    const [value] = values('kind: Dashboard\n__proto__:\n  polluted: "a value longer than thirteen"\n') as [
      Record<string, unknown>
    ]
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({
      polluted: 'a value longer than thirteen'
    })
    expect((value as { polluted?: unknown }).polluted).toBeUndefined()
  })
})
