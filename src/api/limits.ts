/**
 * How much of an answer svc holds in memory, in one place. Each bound is far above anything a
 * real service sends, so it only ever stops a broken or hostile answer (a line that never ends,
 * a body that never stops, a compressed "bomb") before it grows memory until V8 gives up; the
 * answer then ends with exit 1 and a message naming the bound. docs/scripting.md lists them.
 */

const MIB = 1024 * 1024;

/**
 * One line of an SSE stream, and the data of one event. A real chunk is a few hundred bytes;
 * even a whole long reply sent as one event stays well under this.
 */
export const MAX_SSE_LINE_BYTES = 16 * MIB;

/**
 * A chat answer: the JSON body of a non-streamed completion, and the reply text assembled from a
 * stream. A reply that fills a million-token context is about 4 MiB of text.
 */
export const MAX_CHAT_ANSWER_BYTES = 64 * MIB;

/**
 * An image answer without its images (which are decoded to disk as they arrive, never held):
 * the revised prompts, usage and whatever else the JSON carries.
 */
export const MAX_IMAGE_ANSWER_TEXT_BYTES = 64 * MIB;

/** Error bodies and pages that are not the service's answer are read for their message only. */
export const MAX_ERROR_BODY_BYTES = 1 * MIB;

/**
 * An image downloaded from the URL a service gave (`data[n].url`): far beyond any real one (the
 * largest images services make are tens of MiB), so a URL that never stops is stopped.
 */
export const MAX_IMAGE_DOWNLOAD_BYTES = 512 * MIB;
