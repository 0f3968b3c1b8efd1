import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const standup = { name: 'standup', description: 'Daily notes', variables: [{ name: 'team', default: 'Platform' }], body: 'Standup for {{team}}.' }

describe('the prompt library routes', () => {
  it('save, list (with a malformed file reported), rename, delete; refusals carry their key', async () => {
    fx = await appFixture()
    expect(await fx.ok('prompts.list', undefined)).toEqual({ prompts: [], problems: [] })
    expect(await fx.ok('prompts.save', standup)).toEqual(standup)
    writeFileSync(join(fx.home, 'prompts', 'broken.md'), '---\nname: [x\n---\nbody\n')
    const listed = await fx.ok('prompts.list', undefined)
    expect(listed.prompts).toEqual([standup])
    expect(listed.problems).toEqual([expect.objectContaining({ file: 'prompts/broken.md', issue: 'front_matter' })])

    const taken = await fx.call('prompts.save', standup)
    expect(taken).toMatchObject({ ok: false, error: { code: 'CONFLICT', key: 'prompts.exists', params: { name: 'standup' } } })
    const badName = await fx.call('prompts.save', { ...standup, name: '../escape' })
    expect(badName).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })

    await fx.ok('prompts.save', { ...standup, name: 'daily', previousName: 'standup' })
    expect((await fx.ok('prompts.list', undefined)).prompts.map((prompt) => prompt.name)).toEqual(['daily'])
    await fx.ok('prompts.delete', { name: 'daily' })
    expect(await fx.call('prompts.delete', { name: 'daily' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', key: 'prompts.missing' } })
  })
})
