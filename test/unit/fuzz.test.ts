/**
 * A short, fixed-seed run of the fuzzer in scripts/fuzz.ts (`npm run fuzz` runs thousands of cases):
 * validation never throws or hangs, every diagnostic has a place and a message, generated valid
 * manifests are valid, and a value of the wrong type is reported at its field.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { validateText } from '../../src/manifest/load.js'
import { YAML_LIMITS } from '../../src/manifest/yaml.js'
import {
  aliasCase,
  checkCase,
  deepCase,
  emptyStats,
  fuzzProperty,
  MAX_FUZZ_DEPTH,
  validCase,
  validDocuments,
  wrongTypeCase,
  type FuzzCase
} from '../../scripts/fuzz.js'

const SEED = 20240501
/** Generous: the slowest case (a ~500 KB scalar) takes well under a second on a busy runner. */
const CALL_LIMIT_MS = 5000

/** fc.assert with the seed in the failure message, so a failure can be replayed with `npm run fuzz`. */
function assertProperty<T>(property: fc.IProperty<T>, numRuns: number, seed = SEED): void {
  const result = fc.check(property, { numRuns, seed })
  if (result.failed) {
    throw new Error(
      `fuzz property failed (seed ${seed}; replay: npm run fuzz -- --seed ${seed} --runs ${numRuns})\n${fc.defaultReportMessage(result) ?? ''}`
    )
  }
}

describe('fuzzing validateText', () => {
  it('never throws or hangs, and gives every diagnostic a file, a line and a message (300 mixed cases)', () => {
    const stats = emptyStats()
    assertProperty(fuzzProperty(stats, { callLimitMs: CALL_LIMIT_MS }), 300)
    expect(stats.runs).toBe(300)
    // The mix reached every family, and the invalid ones produced diagnostics to check.
    for (const family of ['valid', 'wrong type', 'random bytes', 'token soup', 'aliases']) {
      expect(stats.byFamily[family] ?? 0).toBeGreaterThan(0)
    }
    expect(Object.keys(stats.byFamily).some(f => f.startsWith('deep '))).toBe(true)
    expect(Object.keys(stats.byFamily).some(f => f.startsWith('huge '))).toBe(true)
    expect(stats.errors).toBeGreaterThan(100)
    expect(stats.slowest.ms).toBeLessThan(CALL_LIMIT_MS)
  })

  it('finds nothing wrong with generated valid manifests', () => {
    assertProperty(
      fc.property(validCase, c => {
        checkCase(c, CALL_LIMIT_MS)
      }),
      60
    )
  })

  it('generates manifests that really are what they claim: dashboards with tiles, and alerts', () => {
    const samples = fc.sample(validDocuments, { numRuns: 50, seed: SEED })
    const kinds = samples.flatMap(s => s.docs.map(d => d.kind))
    expect(kinds).toEqual(expect.arrayContaining(['Dashboard', 'Alert', 'ServiceSettings']))
    const dashboards = samples.flatMap(s => s.docs.filter(d => d.kind === 'Dashboard'))
    expect(dashboards.some(d => Array.isArray(d.tiles) && d.tiles.length > 2)).toBe(true)
    // And validation agrees, document for document.
    for (const { docs, mode } of samples.slice(0, 10)) {
      const set = validateText('sample.yaml', docs.map(d => JSON.stringify(d)).join('\n---\n'), mode)
      expect(set.diagnostics).toEqual([])
      expect(set.specs.Dashboard.length + set.specs.Alert.length + set.specs.ServiceSettings.length).toBe(
        docs.length
      )
    }
  })

  it('reports a value of the wrong type at the field it was put in, on the line of that value', () => {
    assertProperty(
      fc.property(wrongTypeCase, c => {
        checkCase(c, CALL_LIMIT_MS)
      }),
      100
    )
  })

  it('refuses alias bombs and dangling aliases with an error, never expanding them', () => {
    assertProperty(
      fc.property(aliasCase, (c: FuzzCase) => {
        const { diagnostics } = checkCase(c, CALL_LIMIT_MS)
        if (c.family === 'alias bomb') {
          expect(diagnostics.map(d => d.message)).toContain(
            'YAML too many alias expansions (more than 100): refused as a resource exhaustion attack'
          )
        }
        if (c.family === 'dangling alias') expect(diagnostics.some(d => d.severity === 'error')).toBe(true)
      }),
      60
    )
  })

  it('refuses exactly the documents nested deeper than 64 levels, up to the depth the fuzzer goes', () => {
    expect(MAX_FUZZ_DEPTH).toBeGreaterThan(YAML_LIMITS.maxDepth)
    let deep = 0
    assertProperty(
      fc.property(deepCase, (c: FuzzCase) => {
        const { diagnostics } = checkCase(c, CALL_LIMIT_MS)
        if (c.depth === undefined) return
        const refused = diagnostics.some(
          d => d.message === `YAML is nested deeper than ${YAML_LIMITS.maxDepth} levels`
        )
        expect({ depth: c.depth, refused }).toEqual({
          depth: c.depth,
          refused: c.depth > YAML_LIMITS.maxDepth
        })
        if (refused) deep++
      }),
      80
    )
    expect(deep).toBeGreaterThan(0)
  })
})
