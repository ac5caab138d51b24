/** js-yaml 4 (package alias `js-yaml-4`): the parts the manifest loader uses. It ships no types. */
declare module 'js-yaml-4' {
  export class Type {
    constructor(
      tag: string,
      options: { kind: 'scalar'; resolve(data: string): boolean; construct(data: string): unknown }
    )
  }
  export class Schema {
    extend(types: { implicit?: Type[]; explicit?: Type[] }): Schema
  }
  export const FAILSAFE_SCHEMA: Schema
  export function loadAll(
    text: string,
    iterator: null,
    options: { filename?: string; schema?: Schema; json?: boolean }
  ): unknown[]
  const jsYaml: {
    Type: typeof Type
    FAILSAFE_SCHEMA: Schema
    loadAll: typeof loadAll
  }
  export default jsYaml
}
