import { afterEach, describe, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const SECRET = 'User failed the bar exam twice'

describe('"Don\'t bring this up" on the Memory screen', () => {
  it('keeps the entry on the screen marked hidden, records each decision, and brings it back when asked', async () => {
    fx = await appFixture()
    await fx.ok('memory.add', { target: 'user', content: SECRET })
    await fx.ok('memory.add', { target: 'user', content: 'User lives in Oslo' })
    const before = await fx.ok('memory.get')

    await fx.ok('memory.setHidden', { target: 'user', text: 'bar exam', hidden: true })
    const view = (await fx.ok('memory.get')).user
    expect(view.entries).toEqual([SECRET, 'User lives in Oslo'])
    expect(view.info[0]).toMatchObject({ text: SECRET, hidden: true })
    expect(view.info[0].hiddenAt).toEqual(expect.any(String))
    expect(view.info[1]).toMatchObject({ hidden: false, hiddenAt: null })
    // The usage still counts it: it is in the file.
    expect(view.current).toBe(before.user.current)
    expect(fx.events.some((event) => event.name === 'memory.changed')).toBe(true)

    // An edit from the screen keeps it hidden under its new words, and its history carries over.
    await fx.ok('memory.replace', { target: 'user', oldText: SECRET, content: 'User failed the bar exam twice, then passed' })
    const edited = (await fx.ok('memory.get')).user
    expect(edited.info[0]).toMatchObject({ text: 'User failed the bar exam twice, then passed', hidden: true })

    await fx.ok('memory.setHidden', { target: 'user', text: 'then passed', hidden: false })
    expect((await fx.ok('memory.get')).user.info[0].hidden).toBe(false)
    const history = await fx.ok('memory.visibilityHistory', { target: 'user', entry: 'User failed the bar exam twice, then passed' })
    expect(history.map((change) => change.hidden)).toEqual([false, true])
    expect(history[1].entry).toBe(SECRET)
  })

  it('answers an entry that is not there with a keyed error', async () => {
    fx = await appFixture()
    const result = await fx.call('memory.setHidden', { target: 'memory', text: 'nothing like this', hidden: true })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('NOT_FOUND')
  })
})
