/**
 * zod's settings for the whole process: imported first by each entry point, before any schema is built
 * (a schema reads them when it is constructed).
 *
 * jitless: zod compiles a parser for each object schema (`new Function`) on its first parse. A start-up
 * pays that compile for every schema and gets little back: `validate` of a small repository spends about
 * a tenth of its instructions there, and a plan of 1,000 dashboards and 2,000 alerts runs as fast without
 * it. Only past several thousand documents (5,000 dashboards + 10,000 alerts: 2-3%) would it pay.
 */
import { z } from 'zod'

z.config({ jitless: true })
