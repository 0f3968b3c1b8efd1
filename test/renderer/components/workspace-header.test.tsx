import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { VirtuosoMockContext } from 'react-virtuoso'
import { App } from '../../../renderer/src/app/App'
import { createAppState } from '../../../renderer/src/app/app-state'
import { connectApp, loadInitial } from '../../../renderer/src/app/connect'
import { AppProvider } from '../../../renderer/src/app/context'
import { createClient } from '../../../renderer/src/ipc/client'
import { preloadTransport } from '../../../renderer/src/ipc/transport'
import { FakeBridge, FakeFailure, type RouteHandlers } from '../helpers/fake-transport'
import { baseHandlers, config, message, session, settingsView } from '../helpers/fixtures'
import { manualFrames, ROOMY_VIEWPORT, settle } from '../helpers/render-app'

const site = { ...session('s1', 'Site work'), workspace: '/home/me/projects/site' }

/** The whole main window, as the desktop app (`desktop`) or `cairn serve` (`browser`) shows it. */
async function renderWindow(mode: 'desktop' | 'browser', handlers: RouteHandlers = {}) {
  const bridge = new FakeBridge(
    baseHandlers({
      'sessions.list': [site],
      'sessions.get': { session: site, messages: [message('user', 'hello')], running: false },
      'chat.send': { sessionId: 's2', turnId: 't1' },
      'chat.attach': { running: false, events: [] },
      ...handlers
    })
  )
  const app = createAppState(createClient({ ...preloadTransport(bridge), mode }), { frames: manualFrames() })
  connectApp(app)
  await act(async () => {
    await loadInitial(app, { restore: false })
  })
  render(
    <VirtuosoMockContext.Provider value={ROOMY_VIEWPORT}>
      <AppProvider app={app}>
        <App />
      </AppProvider>
    </VirtuosoMockContext.Provider>
  )
  await settle()
  return { bridge, app }
}

const folderButton = () => screen.getByRole('button', { name: /Change the folder Cairn works in/ })

async function openSite(): Promise<void> {
  fireEvent.click(screen.getByRole('button', { name: /Site work/ }))
  await settle()
}

describe('the workspace in the chat header', () => {
  it('shows the open conversation’s folder by name, with the full path on hover and on focus', async () => {
    await renderWindow('desktop')
    await openSite()
    const button = folderButton()
    expect(button.textContent).toBe('Folder: site')
    expect(button.getAttribute('aria-label')).toBe('Change the folder Cairn works in (now /home/me/projects/site)')
    expect(button.getAttribute('title')).toBe('/home/me/projects/site')
    const tip = document.getElementById(button.getAttribute('aria-describedby')!)!
    expect(tip.getAttribute('role')).toBe('tooltip')
    expect(tip.textContent).toBe('/home/me/projects/site')
    // Reachable from the keyboard: a real button that takes focus.
    button.focus()
    expect(document.activeElement).toBe(button)
  })

  it('shows the default folder for a new conversation, in the user’s language', async () => {
    await renderWindow('desktop', { 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    const button = screen.getByRole('button', { name: /更改 Cairn 的工作文件夹/ })
    expect(button.textContent).toBe('文件夹：Cairn')
    expect(button.getAttribute('title')).toBe('/home/me/Cairn')
  })

  it('changes the folder in browser mode by typing its path, and says in words why a folder is refused', async () => {
    const { bridge } = await renderWindow('browser', {
      'sessions.setWorkspace': ({ path }) => {
        if (path.startsWith('/opt/cairn')) throw new FakeFailure('WORKSPACE', 'forbidden', { problem: 'forbidden', path, root: '/opt/cairn' })
        return { path }
      }
    })
    await openSite()
    fireEvent.click(folderButton())
    const dialog = screen.getByRole('dialog', { name: 'Folder for this conversation' })
    const field = within(dialog).getByRole('textbox', { name: 'Full path of the folder' }) as HTMLInputElement
    expect(field.value).toBe('/home/me/projects/site')
    expect(document.activeElement).toBe(field)
    expect(dialog.textContent).toContain('The change applies from the next message.')

    fireEvent.change(field, { target: { value: '/opt/cairn/resources' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use this folder' }))
    await settle()
    expect(within(dialog).getByRole('alert').textContent).toBe('/opt/cairn/resources is inside /opt/cairn, where Cairn itself lives. Choose a folder of your own.')
    expect(field.getAttribute('aria-invalid')).toBe('true')

    fireEvent.change(field, { target: { value: '/home/me/projects/blog' } })
    fireEvent.submit(field.form!)
    await settle()
    expect(bridge.callsTo('sessions.setWorkspace')).toEqual([
      { sessionId: 's1', path: '/opt/cairn/resources' },
      { sessionId: 's1', path: '/home/me/projects/blog' }
    ])
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(folderButton().textContent).toBe('Folder: blog')
    expect(screen.getByText('Cairn now works in /home/me/projects/blog.')).toBeTruthy()
  })

  it('starts a new conversation in the folder chosen for it', async () => {
    const { bridge } = await renderWindow('browser', { 'sessions.setWorkspace': ({ path }) => ({ path }) })
    fireEvent.click(folderButton())
    const field = screen.getByRole('textbox', { name: 'Full path of the folder' })
    fireEvent.change(field, { target: { value: '/home/me/notes' } })
    fireEvent.submit((field as HTMLInputElement).form!)
    await settle()
    expect(bridge.callsTo('sessions.setWorkspace')).toEqual([{ sessionId: null, path: '/home/me/notes' }])
    expect(folderButton().textContent).toBe('Folder: notes')

    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(box, { target: { value: 'start here' } })
    fireEvent.keyDown(box, { key: 'Enter' })
    await settle()
    expect(bridge.callsTo('chat.send')).toEqual([{ sessionId: null, text: 'start here', workspace: '/home/me/notes' }])
  })

  it('opens the system folder picker on the desktop and uses the folder picked', async () => {
    const { bridge } = await renderWindow('desktop', {
      'window.pickFolder': { path: '/home/me/picked' },
      'sessions.setWorkspace': ({ path }) => ({ path })
    })
    await openSite()
    fireEvent.click(folderButton())
    await settle()
    expect(bridge.callsTo('window.pickFolder')).toEqual([{ defaultPath: '/home/me/projects/site' }])
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(bridge.callsTo('sessions.setWorkspace')).toEqual([{ sessionId: 's1', path: '/home/me/picked' }])
    expect(folderButton().textContent).toBe('Folder: picked')
  })
})
