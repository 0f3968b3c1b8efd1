import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  LIST_BEFORE_CREATE_MESSAGE,
  NO_DELETE_MESSAGE,
  REFUSED_TOOL_MESSAGE,
  ReviewPolicy,
  reviewTools
} from '../../../../electron/core/learning/worker/review-policy'
import { MemoryStore } from '../../../../electron/core/memory'
import { runTool } from '../../../../electron/core/tools/run-tool'
import { newTurnState, type ToolContext } from '../../../../electron/core/tools/types'
import { skillEnv, skillText, withDeploy, type Json, type SkillEnv } from '../../../helpers/skill-env'

/** Calls tools the way a review run does: the review's tools, through the policy, with one turn state for the whole run. */
function reviewCalls(env: SkillEnv) {
  const memory = new MemoryStore({ dataHome: env.root, dir: env.paths.memoriesDir, memoryCharLimit: 2200, userCharLimit: 1375, recorder: env.ledger })
  const tools = reviewTools({ memory, skills: env.store, memorySettings: { enabled: true, userProfileEnabled: true }, allowSkillCreation: true })
  const turn = newTurnState()
  const policy = new ReviewPolicy(tools, turn, env.store)
  const ctx: ToolContext = { write: { source: 'review', reviewId: 'r1' }, turn }
  return async (name: string, args: Json = {}): Promise<Json> => {
    const admission = policy.admit(name, args)
    if ('refusal' in admission) return admission.refusal.result
    const result = await runTool(admission.tool, args, ctx)
    policy.ran(name, result)
    return result as Json
  }
}

const patchDeploy = { action: 'patch', name: 'deploy', old_string: 'Check the cluster.', new_string: 'Check the nodes.' }

describe('review policy', () => {
  it('refuses every tool but the four learning tools, including the chat-only session_search', async () => {
    const call = reviewCalls(skillEnv())
    for (const name of ['run_command', 'write_file', 'session_search']) {
      expect(await call(name, { command: 'ls' })).toEqual({ success: false, error: REFUSED_TOOL_MESSAGE })
    }
    expect(await call('skills_list')).toMatchObject({ success: true })
  })

  it('never deletes a skill or a file of it, even one it has viewed', async () => {
    const env = skillEnv()
    const dir = await withDeploy(env)
    await env.manage({ action: 'write_file', name: 'deploy', file_path: 'references/api.md', file_content: 'GET /v1\n' })
    const call = reviewCalls(env)
    await call('skill_view', { name: 'deploy' })
    await call('skill_view', { name: 'deploy', file_path: 'references/api.md' })
    expect(await call('skill_manage', { action: 'delete', name: 'deploy' })).toEqual({ success: false, error: NO_DELETE_MESSAGE })
    expect(await call('skill_manage', { action: 'remove_file', name: 'deploy', file_path: 'references/api.md' })).toEqual({
      success: false,
      error: NO_DELETE_MESSAGE
    })
    expect(readFileSync(join(dir, 'references', 'api.md'), 'utf8')).toBe('GET /v1\n')
    expect(env.store.get('deploy')).not.toBeNull()
  })

  it('creates only after a skills_list that worked', async () => {
    const env = skillEnv()
    const call = reviewCalls(env)
    const create = { action: 'create', name: 'fresh', content: skillText('fresh') }
    expect(await call('skill_manage', create)).toEqual({ success: false, error: LIST_BEFORE_CREATE_MESSAGE })
    expect(await call('skills_list', { category: 42 })).toMatchObject({ success: false }) // a failed list is no look
    expect(await call('skill_manage', create)).toEqual({ success: false, error: LIST_BEFORE_CREATE_MESSAGE })
    await call('skills_list')
    expect(await call('skill_manage', create)).toMatchObject({ success: true })
    expect(env.store.getUsage('fresh')?.createdBy).toBe('review')
  })

  it('changes only a skill it viewed in this run, and a supporting file only once it viewed that file', async () => {
    const env = skillEnv()
    await withDeploy(env)
    await env.manage({ action: 'write_file', name: 'deploy', file_path: 'references/api.md', file_content: 'GET /v1\n' })
    await env.view({ name: 'deploy' }) // the chat's view is another turn: it does not count for the review
    const call = reviewCalls(env)
    const blind = await call('skill_manage', patchDeploy)
    expect(blind).toMatchObject({ success: false, _read_before_write_required: true })
    expect(blind.error).toMatch(/Call skill_view\(name='deploy'\) first/)
    for (const args of [
      { action: 'edit', name: 'deploy', content: skillText('deploy', 'new') },
      { action: 'write_file', name: 'deploy', file_path: 'references/new.md', file_content: 'x\n' }
    ]) {
      expect(await call('skill_manage', args)).toMatchObject({ success: false, _read_before_write_required: true })
    }
    expect(env.ledger.list({ reviewId: 'r1' })).toEqual([])

    await call('skill_view', { name: 'deploy' })
    expect(await call('skill_manage', patchDeploy)).toMatchObject({ success: true })
    const filePatch = { action: 'patch', name: 'deploy', file_path: './references//api.md', old_string: '/v1', new_string: '/v2' }
    expect((await call('skill_manage', filePatch)).error).toMatch(/file_path='references\/api.md'\) first/)
    await call('skill_view', { name: 'deploy', file_path: 'references/api.md' })
    expect(await call('skill_manage', filePatch)).toMatchObject({ success: true })
  })

  it('says a skill that does not exist is not found, rather than asking to view it first', async () => {
    const env = skillEnv()
    await withDeploy(env)
    const call = reviewCalls(env)
    for (const args of [
      { ...patchDeploy, name: 'deplyo' },
      { action: 'edit', name: 'missing', content: skillText('missing') },
      { action: 'write_file', name: 'missing', file_path: 'references/a.md', file_content: 'x\n' }
    ]) {
      const result = await call('skill_manage', args)
      expect(result).toMatchObject({ success: false })
      expect(result.error).toMatch(new RegExp(`^Skill '${args.name}' not found`))
      expect(result._read_before_write_required).toBeUndefined()
    }
    // An existing skill it has not read is still "view it first".
    expect(await call('skill_manage', patchDeploy)).toMatchObject({ success: false, _read_before_write_required: true })
    expect(env.ledger.list({ reviewId: 'r1' })).toEqual([])
  })

  it('reads skills without counting it as use, so judging a stale skill does not make it look fresh', async () => {
    const env = skillEnv()
    await withDeploy(env)
    const before = env.store.getUsage('deploy')?.viewCount ?? 0
    const call = reviewCalls(env)
    expect(await call('skill_view', { name: 'deploy' })).toMatchObject({ success: true })
    expect(env.store.getUsage('deploy')?.viewCount ?? 0).toBe(before)
    await env.view({ name: 'deploy' }) // the chat's view is use
    expect(env.store.getUsage('deploy')?.viewCount).toBe(before + 1)
  })

  it('counts a skill it created in this run as read, so it can patch it at once', async () => {
    const env = skillEnv()
    const call = reviewCalls(env)
    await call('skills_list')
    await call('skill_manage', { action: 'create', name: 'fresh', content: skillText('fresh') })
    expect(await call('skill_manage', { action: 'patch', name: 'fresh', old_string: 'Check the cluster.', new_string: 'Check it.' })).toMatchObject({
      success: true
    })
    expect(env.store.getUsage('fresh')).toMatchObject({ createdBy: 'review', patchCount: 1 })
  })
})
