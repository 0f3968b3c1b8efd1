import { useEffect, useId, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { formatBytes } from '../../../../shared/attachments'
import { useT } from '../../app/context'
import { keepFocusInside } from '../../components/focus-trap'
import { Icon } from '../../components/Icon'
import './image-viewer.css'

/** One image the viewer can show: `src` is a data: URL (null while it loads, or when it is gone). */
export interface ViewedImage {
  name: string
  size: number
  src: string | null
  unavailable?: boolean
}

/**
 * The images of one message, one at a time at the size that fits the window: ← and → move between
 * them, Esc or the backdrop closes, and focus goes back where it was (the thumbnail that opened it).
 * Tab stays inside while it is open.
 */
export function ImageViewer({ images, start, onClose }: { images: ViewedImage[]; start: number; onClose(): void }): React.JSX.Element {
  const t = useT()
  const titleId = useId()
  const panel = useRef<HTMLDivElement>(null)
  const [index, setIndex] = useState(Math.min(Math.max(start, 0), images.length - 1))
  const image = images[index]
  const many = images.length > 1
  const move = (step: number) => setIndex((current) => Math.min(Math.max(current + step, 0), images.length - 1))

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    panel.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus()
    return () => previous?.focus?.()
  }, [])

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation()
      onClose()
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault()
      move(event.key === 'ArrowLeft' ? -1 : 1)
    } else if (event.key === 'Tab' && panel.current) keepFocusInside(panel.current, event)
  }

  // In a portal: a row of the virtualised message list is moved with a transform, which would pin a fixed backdrop to the row.
  return createPortal(
    <div className="dialog-backdrop image-viewer-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div ref={panel} className="image-viewer" role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={`${titleId}-keys`} onKeyDown={onKeyDown}>
        <div className="image-viewer-bar">
          <div className="image-viewer-facts">
            <h2 id={titleId} className="image-viewer-name" title={image.name}>
              {image.name}
            </h2>
            <span className="image-viewer-meta">
              {formatBytes(image.size)}
              {many ? ` · ${t('images.position', { index: index + 1, count: images.length })}` : ''}
            </span>
          </div>
          <button type="button" className="icon-button" onClick={onClose} aria-label={t('images.close')} title={t('images.close')} data-autofocus>
            <Icon name="close" size={16} />
          </button>
        </div>
        <div className="image-viewer-stage">
          {many ? (
            <button type="button" className="image-viewer-step previous" onClick={() => move(-1)} disabled={index === 0} aria-label={t('images.previous')} title={t('images.previous')}>
              <Icon name="chevronRight" size={20} />
            </button>
          ) : null}
          {image.src ? (
            <img className="image-viewer-image" src={image.src} alt={image.name} />
          ) : (
            <p className="image-viewer-missing" role="status">
              {image.unavailable ? t('images.unavailable') : t('images.loading')}
            </p>
          )}
          {many ? (
            <button type="button" className="image-viewer-step next" onClick={() => move(1)} disabled={index === images.length - 1} aria-label={t('images.next')} title={t('images.next')}>
              <Icon name="chevronRight" size={20} />
            </button>
          ) : null}
        </div>
        <p id={`${titleId}-keys`} className="image-viewer-keys">
          {many ? t('images.keys') : t('images.escCloses')}
        </p>
      </div>
    </div>,
    document.body
  )
}
