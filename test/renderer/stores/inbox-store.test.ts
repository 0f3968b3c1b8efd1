import { describe, expect, it } from 'vitest'
import { translator } from '../../../shared/i18n'
import { describeDecisionFailure } from '../../../renderer/src/features/inbox/proposal-words'
import { createClient } from '../../../renderer/src/ipc/client'
import { preloadTransport } from '../../../renderer/src/ipc/transport'
import { createInboxStore } from '../../../renderer/src/stores/inbox'
import { FakeBridge } from '../helpers/fake-transport'
import { ledger, proposal } from '../helpers/fixtures'

describe('a second decision on a proposal while the first is on its way', () => {
  it('is refused in the user’s language, and the first still goes through', async () => {
    let answer: (() => void) | null = null
    const bridge = new FakeBridge({
      'inbox.list': { proposals: [proposal(1)], pending: 1 },
      'inbox.approve': () =>
        new Promise((resolve) => {
          answer = () => resolve({ ok: true, proposal: { ...proposal(1), state: 'approved', decidedAt: Date.now() }, ledgerEntry: ledger(40) })
        })
    })
    const inbox = createInboxStore(createClient(preloadTransport(bridge)))
    await inbox.getState().load()
    const first = inbox.getState().approve(1)
    const second = await inbox.getState().reject(1)
    expect(second.ok).toBe(false)
    if (second.ok) return
    expect(describeDecisionFailure(second, translator('en')).text).toBe('A decision on this proposal is already on its way.')
    expect(describeDecisionFailure(second, translator('zh-CN'))).toEqual({ text: '对这项建议的决定正在处理中。', detail: null })
    expect(bridge.callsTo('inbox.reject')).toEqual([])
    for (let i = 0; i < 20 && !answer; i++) await Promise.resolve()
    answer!()
    expect((await first).ok).toBe(true)
    expect(inbox.getState().proposals).toEqual([])
    expect(inbox.getState().pending).toBe(0)
  })
})
