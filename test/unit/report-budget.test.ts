import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { cutToSize, fitSegments, sizeOf, type Cuttable, type Measure } from '../../src/report/budget.js'

const run = (items: string[], cutOrder: number, overrides: Partial<Cuttable> = {}): Cuttable => ({
  head: '## Items\n',
  items,
  tail: '\n',
  omitted: n => `(${n} more)\n`,
  cutOrder,
  keepHeadWhenEmpty: false,
  ...overrides
})

describe('fitting a report into a size limit', () => {
  it('leaves a report that fits untouched', () => {
    const text = fitSegments(['# Title\n', run(['a\n', 'b\n'], 0)], 1000, 'chars')
    expect(text).toBe('# Title\n## Items\na\nb\n\n')
  })

  it('cuts whole items from the end and says how many', () => {
    const items = ['first item\n', 'second item\n', 'third item\n']
    const text = fitSegments(['# Title\n', run(items, 0)], 45, 'chars')
    expect(text).toBe('# Title\n## Items\nfirst item\n(2 more)\n\n')
  })

  it('empties the run cut first before touching the next', () => {
    const e = 'e'.repeat(10) + '\n'
    const d = 'd'.repeat(10) + '\n'
    const text = fitSegments(
      ['# T\n', run([e, e], 1, { head: 'E\n' }), run([d, d], 0, { head: 'D\n' })],
      45,
      'chars'
    )
    expect(text).toBe(`# T\nE\n${e}${e}\n(2 more)\n\n`)
  })

  it('keeps a heading over an emptied run when asked to', () => {
    const text = fitSegments([run(['x'.repeat(50)], 0, { keepHeadWhenEmpty: true })], 20, 'chars')
    expect(text).toBe('## Items\n(1 more)\n\n')
  })

  it('counts UTF-8 bytes when asked to', () => {
    expect(sizeOf('é🚀', 'chars')).toBe(3)
    expect(sizeOf('é🚀', 'bytes')).toBe(6)
    const items = ['🚀🚀🚀\n', '🚀🚀🚀\n']
    expect(fitSegments([run(items, 0, { head: '', tail: '', omitted: () => '' })], 14, 'chars')).toBe(
      '🚀🚀🚀\n🚀🚀🚀\n'
    )
    expect(fitSegments([run(items, 0, { head: '', tail: '', omitted: () => '' })], 14, 'bytes')).toBe(
      '🚀🚀🚀\n'
    )
  })

  it('cuts fixed text at a line, or within a line without splitting a character, only as a last resort', () => {
    expect(cutToSize('line one\nline two\n', 12, 'chars')).toBe('line one\n')
    expect(cutToSize('🚀🚀🚀', 9, 'bytes')).toBe('🚀🚀')
    expect(cutToSize('🚀🚀🚀', 5, 'chars')).toBe('🚀🚀')
  })

  it('never exceeds the limit and never cuts inside an item (property)', () => {
    const item = fc.string({ unit: 'grapheme', maxLength: 40 }).map(s => `<i>${s.replace(/\n/g, ' ')}</i>\n`)
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 }),
        fc.array(fc.tuple(fc.array(item, { maxLength: 30 }), fc.integer({ min: 0, max: 3 })), {
          maxLength: 4
        }),
        fc.integer({ min: 0, max: 2000 }),
        fc.constantFrom<Measure>('chars', 'bytes'),
        (fixed, runs, limit, measure) => {
          const segments = [...fixed.map(f => `# ${f}\n`), ...runs.map(([items, order]) => run(items, order))]
          const text = fitSegments(segments, limit, measure)
          expect(sizeOf(text, measure)).toBeLessThanOrEqual(limit)
          const fixedSize = segments.reduce((n, s) => n + (typeof s === 'string' ? sizeOf(s, measure) : 0), 0)
          // When the fixed text fits, items are whole: every <i> opened is closed on its line.
          if (fixedSize + runs.length * 40 <= limit) {
            for (const line of text.split('\n'))
              if (line.startsWith('<i>')) expect(line.endsWith('</i>')).toBe(true)
          }
        }
      ),
      { numRuns: 300 }
    )
  })
})
