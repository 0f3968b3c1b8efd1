import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { session } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const drawing = (button: HTMLElement) => button.querySelector('svg')?.innerHTML ?? ''

describe('the sidebar and header icons', () => {
  it('draws New chat and Rename apart (the pencil is Rename’s)', async () => {
    await renderApp({ 'sessions.list': [session('s1', 'Trip plans')] })
    fireEvent.click(screen.getByRole('button', { name: /^Trip plans/ }))
    await settle()
    const newChat = drawing(screen.getByRole('button', { name: 'New chat' }))
    const rename = drawing(screen.getByRole('button', { name: 'Rename' }))
    expect(newChat).not.toBe('')
    expect(rename).not.toBe('')
    expect(newChat).not.toBe(rename)
  })
})
