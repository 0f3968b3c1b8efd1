import { act, render, waitFor, type RenderResult } from '@testing-library/react'
import type { ReactNode } from 'react'
import { expect } from 'vitest'
import { VirtuosoMockContext, type VirtuosoMockContextValue } from 'react-virtuoso'
import { App } from '../../../renderer/src/app/App'
import { createAppState, type AppState } from '../../../renderer/src/app/app-state'
import { connectApp, loadInitial } from '../../../renderer/src/app/connect'
import { AppProvider } from '../../../renderer/src/app/context'
import { createClient } from '../../../renderer/src/ipc/client'
import { preloadTransport } from '../../../renderer/src/ipc/transport'
import type { FrameScheduler } from '../../../renderer/src/stores/stream-buffer'
import { FakeBridge, type RouteHandlers } from './fake-transport'
import { baseHandlers } from './fixtures'

/** Animation frames the test runs by hand, to see exactly what one frame flushes. */
export function manualFrames(): FrameScheduler & { run(): void; pending(): number } {
  let next = 1
  const queue = new Map<number, () => void>()
  return {
    request(callback) {
      const id = next++
      queue.set(id, callback)
      return id
    },
    cancel(id) {
      queue.delete(id)
    },
    run() {
      const callbacks = [...queue.values()]
      queue.clear()
      for (const callback of callbacks) callback()
    },
    pending: () => queue.size
  }
}

export interface Harness extends RenderResult {
  app: AppState
  bridge: FakeBridge
  frames: ReturnType<typeof manualFrames>
}

export function createHarnessState(handlers: RouteHandlers = {}, windowKind: 'main' | 'quick' = 'main') {
  const bridge = new FakeBridge(baseHandlers(handlers))
  const frames = manualFrames()
  const app = createAppState(createClient(preloadTransport(bridge)), { windowKind, frames })
  connectApp(app)
  return { bridge, frames, app }
}

/**
 * happy-dom has no layout, so virtualised lists get fixed sizes: by default a viewport tall enough
 * for every row of a test's conversation; a test of the windowing passes its own.
 */
export const ROOMY_VIEWPORT: VirtuosoMockContextValue = { viewportHeight: 100_000, itemHeight: 40 }

/** Renders a whole window against a fake preload and waits for its start-up requests. */
export async function renderApp(
  handlers: RouteHandlers = {},
  options: { ui?: ReactNode; windowKind?: 'main' | 'quick'; restore?: boolean; viewport?: VirtuosoMockContextValue } = {}
): Promise<Harness> {
  const { bridge, frames, app } = createHarnessState(handlers, options.windowKind)
  await act(async () => {
    await loadInitial(app, { restore: options.restore })
  })
  const result = render(
    <VirtuosoMockContext.Provider value={options.viewport ?? ROOMY_VIEWPORT}>
      <AppProvider app={app}>{options.ui ?? <App />}</AppProvider>
    </VirtuosoMockContext.Provider>
  )
  await act(async () => {})
  return { ...result, app, bridge, frames }
}

/** Lets pending promises (fake IPC answers) settle inside React's act, and lists place their rows. */
export async function settle(): Promise<void> {
  await act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve()
  })
  // A virtualised list opening at its end stays hidden a few frames, until its rows are in place.
  if (placingList()) await waitFor(() => expect(placingList()).toBe(false))
}

function placingList(): boolean {
  return document.querySelector('[data-testid="virtuoso-item-list"][style*="visibility: hidden"]') !== null
}
