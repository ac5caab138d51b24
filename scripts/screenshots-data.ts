/**
 * The data behind `npm run screenshots`' chart scenario: a week of a made-up storefront's logs, in a source
 * of their own ("Storefront logs") added to the emulator's seed, so its charts route has something worth
 * picturing. Each
 * shape is there for a part of the preview to show (issue 40):
 * - `web` sleeps 01:00 to 06:00 UTC and `payments` runs in three half-hour batches a day: a whole time axis shows
 *   their empty buckets at their times, where a chart of only the buckets with rows would close them up;
 * - seven services: a grouped line tile names five and counts the rest;
 * - orders are up on the day before: a number tile says its change against the previous 24 hours;
 * - orders carry the customer's email: a table grouped by it is masked under `preview-values: mask`;
 * - two hours of the week spike above the alert's threshold: its replay fires in exactly those windows.
 * Deterministic for a given `now` (mulberry32 with a fixed seed), on the hour boundaries of real UTC time.
 */
import { createPrng } from '../emulator/prng.js'
import { loadDefaultSeed } from '../emulator/seed.js'
import type { Seed, SeedEvent } from '../emulator/types.js'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const SLOT = 30 * MINUTE
const DAYS = 8
/** The storefront's logs: a source of their own, so the demo's other tiles (on Logs) keep their own data. */
export const STOREFRONT_SOURCE = '65a1f0c2b3d4e5f6a7b8c9a1'

/** The emulator's seed with the storefront's source and its week of logs added. */
export function storefrontSeed(now: number): Seed {
  const seed = loadDefaultSeed()
  const logs = seed.sources.find(s => s.name === 'Logs')!
  seed.sources.push({
    ...structuredClone(logs),
    id: STOREFRONT_SOURCE,
    name: 'Storefront logs',
    from: { databaseName: 'default', tableName: 'storefront_logs' }
  })
  seed.events.push(...storefrontEvents(now))
  return seed
}

/** Requests per half hour of a service from UTC time `h` (0 to 23.5). */
const TRAFFIC: Record<string, (h: number) => number> = {
  web: h => (h >= 1 && h < 6 ? 0 : 7 + 5 * Math.sin(((h - 8) / 24) * 2 * Math.PI)),
  api: () => 4.5,
  search: h => (h >= 8 && h < 22 ? 4 : 1.5),
  cart: h => (h >= 8 && h < 23 ? 3 : 0.5),
  checkout: h => (h >= 9 && h < 22 ? 2.5 : 0),
  payments: h => ([6, 12, 18].includes(h) ? 12 : 0),
  emails: h => (h === 9 ? 20 : 0)
}
/** The share of a service's requests that fail. */
const ERRORS: Record<string, number> = {
  web: 0.02,
  api: 0.05,
  search: 0.01,
  cart: 0.03,
  checkout: 0.08,
  payments: 0.15,
  emails: 0
}
const CUSTOMERS = [
  'jane.doe@customer.example',
  'li.wei@customer.example',
  'amara.okafor@customer.example',
  'sam.taylor@customer.example',
  'noor.haddad@customer.example',
  'pat.lee@customer.example',
  'ines.garcia@customer.example'
]
/** Hours before the current one when `web` spikes (the alert's threshold is 60 an hour). */
const SPIKES = [3 * 24 + 5, 9]
const SPIKE_REQUESTS = 76

export function storefrontEvents(now: number): SeedEvent[] {
  const random = createPrng(40)
  const events: SeedEvent[] = []
  const thisHour = Math.floor(now / HOUR) * HOUR
  for (let slot = DAYS * 48; slot >= 0; slot--) {
    const start = thisHour - slot * SLOT
    const hoursBack = Math.ceil(slot / 2)
    const d = new Date(start)
    const h = d.getUTCHours() + d.getUTCMinutes() / 60
    for (const [service, perSlot] of Object.entries(TRAFFIC)) {
      // Orders a little up in the last day, so the number tile has a change to state.
      const boost = service === 'checkout' && slot < 48 ? 1.3 : 1
      let n = Math.round(perSlot(h) * boost + random() - 0.5)
      if (service === 'web' && SPIKES.includes(hoursBack)) n = SPIKE_REQUESTS / 2
      for (let i = 0; i < n; i++) {
        const at = start + Math.floor(((i + random()) / n) * SLOT)
        if (at > now - MINUTE) continue
        const failed = random() < (ERRORS[service] ?? 0)
        const fields: Record<string, string | number> = {
          app: 'storefront',
          service,
          level: failed ? 'error' : 'info',
          duration: Math.round(40 + random() * (failed ? 900 : 300)),
          message: `${service} request ${failed ? 'failed' : 'handled'}`
        }
        if (service === 'checkout') {
          fields.event = 'order'
          // A few customers order most: a table's top rows are theirs.
          fields.user_email = CUSTOMERS[Math.floor(random() ** 2 * CUSTOMERS.length)]!
        }
        events.push({ minutesAgo: (now - at) / MINUTE, sourceId: STOREFRONT_SOURCE, fields })
      }
    }
  }
  return events
}
