/** A dashboard with a PromQL tile, which the API never shows (for the PromQL scenarios). */
import type { Emulator } from '../../emulator/index.js'

/** A dashboard made in the UI, with a builder tile and a PromQL tile the API does not show. */
export function madeInTheUi(emu: Emulator): string {
  const made = emu.selfHosted.createDashboard({
    name: 'Infra',
    tiles: [
      {
        name: 'Errors',
        x: 0,
        y: 0,
        w: 6,
        h: 3,
        config: { displayType: 'line', sourceId: '65a1f0c2b3d4e5f6a7b8c901', select: [{ aggFn: 'count' }] }
      }
    ]
  })
  made.tiles.push({
    id: 'promql-tile-0001',
    name: 'CPU',
    x: 6,
    y: 0,
    w: 6,
    h: 3,
    config: { configType: 'promql', displayType: 'line', promqlExpression: 'rate(cpu_seconds_total[5m])' }
  })
  return made.id
}
