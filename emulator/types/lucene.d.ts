// @hyperdx/lucene ships no types. The module shape matches src/types/hyperdx-lucene.d.ts exactly (both files are in
// one program and ambient declarations merge), and the AST node types the emulator's matcher walks are added here.
declare module '@hyperdx/lucene' {
  export interface LuceneTermNode {
    field: string
    term: string
    quoted: boolean
    regex?: boolean
    prefix?: string | null
  }
  export interface LuceneRangeNode {
    field: string
    term_min: string
    term_max: string
    inclusive: 'both' | 'none' | 'left' | 'right'
  }
  export interface LuceneBinaryNode {
    left?: LuceneNode
    right?: LuceneNode
    operator?: string
    start?: string
    parenthesized?: boolean
  }
  export type LuceneNode = LuceneTermNode | LuceneRangeNode | LuceneBinaryNode
  export function parse(query: string): unknown
  const lucene: { parse: typeof parse }
  export default lucene
}
