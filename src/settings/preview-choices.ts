/**
 * The values of --preview, SVC_PREVIEW and the stored `preview` setting, apart from the code that
 * acts on them, so declaring the setting loads nothing of the preview.
 */
export const PREVIEW_CHOICES = ['auto', 'kitty', 'iterm', 'sixel', 'blocks', 'none'] as const;
export type PreviewChoice = (typeof PREVIEW_CHOICES)[number];
