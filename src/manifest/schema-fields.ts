/**
 * What the schemas of several kinds share: whole numbers and texts in ranges (with the server's words), the
 * language version, a data source by name or id, and the number format of tiles and series.
 */
import { z } from 'zod'
import { API_VERSIONS, NUMBER_FORMAT_OUTPUTS, NUMERIC_UNITS } from './vocabulary.js'

export const between = (min: number, max: number) =>
  z
    .int({ error: `must be a whole number between ${min} and ${max}` })
    .min(min, { error: `must be between ${min} and ${max}` })
    .max(max, { error: `must be between ${min} and ${max}` })
export const atLeast = (min: number) =>
  z.int({ error: `must be a whole number of at least ${min}` }).min(min, { error: `must be at least ${min}` })
export const text = (max: number) =>
  z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` })

export const apiVersion = z
  .enum(API_VERSIONS)
  .optional()
  .describe('The manifest language version, obsdeploy/v1 (optional).')

/** A data source by name (resolved to its id at plan time) or by raw id. */
export const dataSourceRef = {
  source: z.string().min(1).optional().describe('Data source by name, resolved to its id at plan time.'),
  sourceId: z.string().min(1).optional().describe('Data source id, when you do not want name resolution.')
}
/** common-utils types.ts NumberFormatSchema: `output` is required, `numericUnit` one of the server's units. */
export const NumberFormat = z
  .strictObject({
    output: z.enum(NUMBER_FORMAT_OUTPUTS).describe('How the number is shown (required).'),
    mantissa: z.int().optional().describe('Decimal places shown.'),
    thousandSeparated: z.boolean().optional().describe('Group thousands (1,000,000).'),
    average: z.boolean().optional().describe('Abbreviate large numbers (1.2M).'),
    decimalBytes: z.boolean().optional().describe('byte output: powers of 1000 (kB) instead of 1024 (KiB).'),
    factor: z.number().optional().describe('Multiply the value by this first (e.g. 0.001 for ms to s).'),
    currencySymbol: z.string().optional().describe('currency output: the symbol shown, e.g. $.'),
    numericUnit: z
      .enum(NUMERIC_UNITS)
      .optional()
      .describe('Unit for data, data rate and throughput formats.'),
    unit: z.string().optional().describe('A unit written after the number, e.g. req/s.')
  })
  .describe('Number formatting of displayed values.')
