/** Manifest text for tests that read their own line numbers off the list of lines. */

/** One line per argument. */
export const lines = (...rows: string[]): string => `${rows.join('\n')}\n`

/** A dashboard "D" with one tile "T" at x 0, y 0, w 6, h 3; its body lines start at line 9. */
export const oneTile = (...body: string[]): string =>
  lines(
    'kind: Dashboard',
    'name: D',
    'tiles:',
    '  - name: T',
    '    x: 0',
    '    y: 0',
    '    w: 6',
    '    h: 3',
    ...body
  )
