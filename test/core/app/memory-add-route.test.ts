import { afterEach, describe, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

describe('memory.add from the Memory screen', () => {
  it('answers a repeat with duplicate, a reworded entry with the similar one, and adds it anyway when asked', async () => {
    fx = await appFixture()
    await fx.ok('memory.add', { target: 'user', content: 'Prefers pnpm over npm for Node projects' })
    expect(await fx.ok('memory.add', { target: 'user', content: 'Prefers pnpm over npm for Node projects' })).toMatchObject({ success: true, duplicate: true })
    const reworded = { target: 'user' as const, content: 'Prefers using pnpm instead of npm for Node projects' }
    expect(await fx.ok('memory.add', reworded)).toMatchObject({
      success: false,
      similar: { kind: 'near_duplicate', entry: 'Prefers pnpm over npm for Node projects' }
    })
    expect((await fx.ok('memory.get')).user.entries).toHaveLength(1)
    expect(await fx.ok('memory.add', { ...reworded, allowSimilar: true })).toMatchObject({ success: true })
    const view = await fx.ok('memory.get')
    expect(view.user.entries).toHaveLength(2)
    expect(view.user.info[0].confirmedAt).not.toBeNull()
  })
})
