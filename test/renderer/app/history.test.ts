import { afterEach, describe, expect, it } from 'vitest'
import { connectHistory, goBack, parseRoute, routeHash, type HistoryWindow } from '../../../renderer/src/app/history'
import { hashWithoutSession, sessionFromHash, tokenFromHash } from '../../../renderer/src/ipc/pick-transport'
import { keyLabels, shortcutActionFor } from '../../../renderer/src/app/shortcuts'
import { createUiStore, type UiState } from '../../../renderer/src/stores/ui'

/** A browser tab's session history in memory: entries, a cursor, and popstate on Back/Forward as a browser sends it. */
class FakeTab implements HistoryWindow {
  entries: Array<{ state: unknown; hash: string }>
  index = 0
  left = false
  private readonly target = new EventTarget()
  constructor(hash = '') {
    this.entries = [{ state: null, hash }]
  }
  get location(): Location {
    return { hash: this.entries[this.index].hash } as Location
  }
  history = {
    pushState: (state: unknown, _title: string, url: string) => {
      this.entries = [...this.entries.slice(0, this.index + 1), { state, hash: url }]
      this.index++
    },
    replaceState: (state: unknown, _title: string, url: string) => {
      this.entries[this.index] = { state, hash: url }
    },
    back: () => this.go(-1),
    forward: () => this.go(1),
    get state() {
      return tab().entries[tab().index].state
    }
  } as unknown as History
  private go(step: number): void {
    const next = this.index + step
    if (next < 0) {
      this.left = true
      return
    }
    if (next >= this.entries.length) return
    this.index = next
    this.target.dispatchEvent(Object.assign(new Event('popstate'), { state: this.entries[next].state }))
  }
  addEventListener = ((type: string, listener: EventListener) => this.target.addEventListener(type, listener)) as Window['addEventListener']
  removeEventListener = ((type: string, listener: EventListener) => this.target.removeEventListener(type, listener)) as Window['removeEventListener']
}

let current: FakeTab
const tab = (): FakeTab => current
let stop: (() => void) | null = null

function open(hash = '', saved?: Partial<UiState>) {
  current = new FakeTab(hash)
  const ui = createUiStore()
  if (saved) ui.setState(saved)
  stop = connectHistory(ui, current)
  return ui
}

afterEach(() => {
  stop?.()
  stop = null
})

describe('screens as history entries', () => {
  it('replaces the first entry with the screen shown, keeping the token, and pushes nothing', () => {
    const ui = open('#token=abc', { view: 'memory' })
    expect(ui.getState().view).toBe('memory')
    expect(tab().entries).toHaveLength(1)
    expect(tab().location.hash).toBe('#/memory?token=abc')
    expect(tokenFromHash(tab().location.hash)).toBe('abc')
  })

  it('pushes an entry per navigation, and Back and Forward restore the screen and the Settings section without pushing', () => {
    const ui = open()
    ui.getState().navigate('timeline')
    ui.getState().openSettings('tools')
    ui.getState().openSettings('data')
    expect(tab().entries.map((entry) => entry.hash)).toEqual(['#/chat', '#/timeline', '#/settings/tools', '#/settings/data'])

    tab().history.back()
    expect(ui.getState()).toMatchObject({ view: 'settings', settingsSection: 'tools' })
    tab().history.back()
    expect(ui.getState().view).toBe('timeline')
    tab().history.forward()
    expect(ui.getState()).toMatchObject({ view: 'settings', settingsSection: 'tools' })
    expect(tab().entries).toHaveLength(4)
  })

  it('lets a route in the address win over the screen saved from last time', () => {
    const ui = open('#/settings/appearance?token=t', { view: 'chat', settingsSection: 'provider' })
    expect(ui.getState()).toMatchObject({ view: 'settings', settingsSection: 'appearance' })
    expect(tab().entries).toHaveLength(1)
  })

  it('ignores a route it does not know and shows the saved screen', () => {
    const ui = open('#/nowhere', { view: 'inbox' })
    expect(ui.getState().view).toBe('inbox')
    expect(tab().location.hash).toBe('#/inbox')
  })

  it('never leaves the app from its first entry with the Back keys', () => {
    const ui = open()
    goBack(tab())
    expect(tab().left).toBe(false)
    ui.getState().navigate('skills')
    goBack(tab())
    expect(ui.getState().view).toBe('chat')
    goBack(tab())
    expect(tab().left).toBe(false)
  })
})

describe('the hash', () => {
  it('reads routes and keeps the page parameters beside them', () => {
    expect(parseRoute('#/timeline?token=x')).toEqual({ view: 'timeline' })
    expect(parseRoute('#/settings/search')).toEqual({ view: 'settings', section: 'search' })
    expect(parseRoute('#/settings/bogus')).toEqual({ view: 'settings' })
    expect(parseRoute('#token=x')).toBeNull()
    expect(routeHash({ view: 'settings', section: 'data' }, '#/chat?token=x')).toBe('#/settings/data?token=x')
    expect(sessionFromHash('#/chat?token=x&session=s1')).toBe('s1')
    expect(hashWithoutSession('#/chat?token=x&session=s1')).toBe('#/chat?token=x')
    expect(hashWithoutSession('#token=x&session=s1')).toBe('#token=x')
  })
})

describe('Back and Forward keys', () => {
  const key = (init: Partial<KeyboardEvent>) => ({ key: '', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...init })
  it('are Alt+← / Alt+→ outside text fields, and Ctrl/Cmd+[ / ] anywhere', () => {
    expect(shortcutActionFor(key({ key: 'ArrowLeft', altKey: true }), false)).toBe('back')
    expect(shortcutActionFor(key({ key: 'ArrowRight', altKey: true }), false)).toBe('forward')
    // In a field Alt+← moves the caret by word (on a Mac).
    expect(shortcutActionFor(key({ key: 'ArrowLeft', altKey: true }), true)).toBeNull()
    expect(shortcutActionFor(key({ key: '[', metaKey: true }), true)).toBe('back')
    expect(shortcutActionFor(key({ key: ']', ctrlKey: true }), false)).toBe('forward')
    expect(shortcutActionFor(key({ key: 'ArrowLeft' }), false)).toBeNull()
    expect(keyLabels('Alt+ArrowLeft', true)).toEqual(['⌥', '←'])
  })
})
