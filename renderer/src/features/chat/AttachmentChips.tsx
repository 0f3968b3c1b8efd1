import { useState } from 'react'
import { formatBytes } from '../../../../shared/attachments'
import type { AttachmentView } from '../../../../shared/ipc/domain'
import { useChat, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import { ImageViewer, type ViewedImage } from './ImageViewer'
import { useSentImages } from './sent-images'
import './attachment-thumbnails.css'

export interface ChipFile extends Pick<AttachmentView, 'name' | 'kind' | 'size'> {
  key?: string
  textChars?: number | null
  truncated?: boolean
  /** A data: URL of an image (the composer has the bytes; a sent message loads them, see sent-images.ts). */
  preview?: string
  /** A sent image whose stored copy is gone. */
  unavailable?: boolean
}

/**
 * Attached files on the composer (each removable before sending) and on a sent message: images as
 * thumbnails that open the image viewer (Enter or a click), other files as chips.
 */
export function AttachmentChips({ files, onRemove }: { files: ChipFile[]; onRemove?: (index: number) => void }): React.JSX.Element | null {
  const t = useT()
  const [viewing, setViewing] = useState<number | null>(null)
  if (!files.length) return null
  const images = files.flatMap((file, index) => (file.kind === 'image' ? [{ file, index }] : []))
  const viewed: ViewedImage[] = images.map(({ file }) => ({ name: file.name, size: file.size, src: file.preview ?? null, unavailable: file.unavailable }))
  return (
    <>
      <ul className="attachment-chips" aria-label={t('attachments.listLabel')}>
        {files.map((file, index) => {
          const image = images.findIndex((entry) => entry.index === index)
          return (
            <li
              key={file.key ?? `${index}:${file.name}`}
              className={`attachment-chip ${file.kind}${image >= 0 ? ' thumbnail' : ''}`}
              title={file.truncated && file.textChars ? t('attachments.cut', { chars: file.textChars }) : file.name}
            >
              {image >= 0 ? (
                <button type="button" className="attachment-open" onClick={() => setViewing(image)} aria-label={t('images.open', { name: file.name })}>
                  {file.preview ? <img className="attachment-thumb" src={file.preview} alt={file.name} /> : <Icon name="image" size={22} />}
                </button>
              ) : (
                <Icon name="file" size={15} />
              )}
              <span className="attachment-caption">
                <span className="attachment-name">{file.name}</span>
                <span className="attachment-meta">
                  {t(`attachments.kind.${file.kind}`)} · {formatBytes(file.size)}
                </span>
              </span>
              {onRemove ? (
                <button type="button" className="attachment-remove" onClick={() => onRemove(index)} aria-label={t('attachments.remove', { name: file.name })}>
                  <Icon name="close" size={12} />
                </button>
              ) : null}
            </li>
          )
        })}
      </ul>
      {viewing !== null && viewed.length ? <ImageViewer images={viewed} start={viewing} onClose={() => setViewing(null)} /> : null}
    </>
  )
}

/** A sent message's files, its images shown from their stored copies. */
export function SentAttachments({ messageId, files }: { messageId: number | null; files: AttachmentView[] }): React.JSX.Element | null {
  const sessionId = useChat((s) => s.sessionId)
  const images = useSentImages(sessionId, messageId, files)
  return (
    <AttachmentChips
      files={files.map((file, index) => {
        const image = images[index]
        return image ? { ...file, ...('src' in image ? { preview: image.src } : { unavailable: true }) } : file
      })}
    />
  )
}
