/** `npm run schema`: writes schema/manifest.schema.json, schema/plan.schema.json and schema/stack.schema.json. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { manifestSchema, planSchema, stackSchema } from './generated-files.js'

mkdirSync(new URL('../schema/', import.meta.url), { recursive: true })
writeFileSync(new URL('../schema/manifest.schema.json', import.meta.url), manifestSchema())
writeFileSync(new URL('../schema/plan.schema.json', import.meta.url), planSchema())
writeFileSync(new URL('../schema/stack.schema.json', import.meta.url), stackSchema())
console.log('wrote schema/manifest.schema.json, schema/plan.schema.json and schema/stack.schema.json')
