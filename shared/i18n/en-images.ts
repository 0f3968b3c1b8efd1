/** English words for sent images (issue 29, part E): thumbnails in the conversation and on the composer, and the image viewer. */
export const enImages = {
  'images.open': 'Open {name}',
  'images.viewer': 'Image viewer',
  'images.position': '{index} of {count}',
  'images.previous': 'Previous image',
  'images.next': 'Next image',
  'images.close': 'Close the image viewer',
  'images.loading': 'Loading the image…',
  'images.unavailable': 'This image can no longer be shown: its stored copy is missing.',
  'images.keys': '← → move between images · Esc closes',
  'images.escCloses': 'Esc closes'
} as const
