import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { reviewUserText } from './review-fixture'

/**
 * A background reviewer as a mid-size model behaves at its worst: one tool call per response, a blind
 * write before reading, a near-duplicate create, a patch of a skill it has not viewed, a reworded
 * old_string, a reworded memory entry. It follows a plan of intended calls; a step with `unless`
 * is skipped when its input already answers it (the skills index in its user message), as a model
 * that reads its input would. Its replies depend only on how many calls it already made, so the same
 * reviewer can be replayed against any budget.
 */
export interface SloppyStep {
  call: { name: string; arguments: Record<string, unknown> }
  /** Skip this step when the review's user message matches. */
  unless?: RegExp
}

export interface SloppyReviewer {
  respond: (request: RecordedChatRequest) => ScriptedReply
  /** The steps it planned for the last review it answered (after skipping what its input answered). */
  plan: () => SloppyStep[]
}

export function sloppyReviewer(steps: SloppyStep[], finalText: string): SloppyReviewer {
  let planned: SloppyStep[] = steps
  return {
    plan: () => planned,
    respond(request) {
      const messages = request.body.messages as Array<{ role: string; tool_calls?: unknown[] }>
      const callsMade = messages.filter((message) => message.role === 'assistant' && message.tool_calls?.length).length
      if (callsMade === 0) {
        const input = reviewUserText(request)
        planned = steps.filter((step) => !(step.unless && step.unless.test(input)))
      }
      const step = planned[callsMade]
      return step ? { toolCalls: [step.call] } : { text: finalText }
    }
  }
}

/** The Cairn-made deploy skill the sloppy scenario patches. */
export const DEPLOY_SKILL = [
  '---',
  'name: deploy-staging',
  'description: Use when deploying the web app to the staging server (build, copy, check).',
  '---',
  '# Deploy to staging',
  '',
  '1. Run `npm run build`.',
  '2. Copy `dist/` to the server with rsync.',
  '3. Open https://staging.example.com and check the version.',
  ''
].join('\n')

/**
 * The calls a sloppy reviewer makes for a deploy conversation that hit a pitfall and stated a
 * preference: list (unless its input shows the library), a near-duplicate create (refused), a patch
 * before viewing (refused), view, a reworded patch (fails), the exact patch, a blind memory write,
 * the read it skipped, and an environment fact.
 */
export function deployReviewSteps(): SloppyStep[] {
  const patch = (oldString: string) => ({
    name: 'skill_manage',
    arguments: { action: 'patch', name: 'deploy-staging', old_string: oldString, new_string: '2. Copy `dist/` with `rsync -a --delete` (plain rsync leaves stale files).' }
  })
  const duplicate = DEPLOY_SKILL.replace('name: deploy-staging', 'name: staging-deploy').replace('# Deploy to staging', '# Staging deploy')
  return [
    { call: { name: 'skills_list', arguments: {} }, unless: /deploy-staging.*deploying the web app/ },
    { call: { name: 'skill_manage', arguments: { action: 'create', name: 'staging-deploy', category: 'devops', content: duplicate } } },
    { call: patch('2. Copy `dist/` to the server with rsync.') },
    { call: { name: 'skill_view', arguments: { name: 'deploy-staging' } } },
    { call: patch('Step two: push the build output across') },
    { call: patch('2. Copy `dist/` to the server with rsync.') },
    { call: { name: 'memory', arguments: { action: 'add', target: 'user', content: 'The user prefers using pnpm instead of npm for Node projects' } } },
    { call: { name: 'memory', arguments: { action: 'read', target: 'user' } } },
    { call: { name: 'memory', arguments: { action: 'add', target: 'memory', content: 'Staging deploys need rsync --delete, or stale files stay on the server' } } }
  ]
}
