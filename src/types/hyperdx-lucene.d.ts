// @hyperdx/lucene ships no types; this is the part of its API we use.
declare module '@hyperdx/lucene' {
  export interface LucenePosition {
    offset: number
    line: number
    column: number
  }
  export interface LuceneSyntaxError extends Error {
    location?: { start: LucenePosition; end: LucenePosition }
  }
  export function parse(query: string): unknown
  const lucene: { parse: typeof parse }
  export default lucene
}
