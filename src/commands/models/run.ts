/**
 * `svc models`: GET /v1/models, printed as a table (terminal), ids (pipe) or JSON, and kept in the
 * cache folder so that shell completion of -m can offer the ids without asking the service.
 */
import { htmlPageError, isHtmlAnswer, readUpTo } from '../../api/answer-body.js';
import { MAX_CHAT_ANSWER_BYTES } from '../../api/limits.js';
import { parseServiceJson } from '../../api/service-message.js';
import { ApiError, MalformedResponseError, RejectedError } from '../../core/errors.js';
import { isObject, jsonForOutput } from '../../core/json.js';
import { requireBaseUrl, type Factory } from '../../factory.js';
import { cacheDir } from '../../settings/paths.js';
import { cachedModelIds as cachedIds, keepModelIds as keepIds } from '../../storage/models-cache.js';
import { settingFlagsFrom } from '../setting-flags.js';
import { tableText, terminalWidth } from '../../terminal/table.js';

export interface ModelsFlags {
  json?: boolean;
  cached?: boolean;
  baseUrl?: string;
  timeout?: string;
  maxRetries?: string;
}

interface ModelRow {
  id: string;
  ownedBy: string | undefined;
  created: number | undefined;
}

function rowsOf(answer: unknown): ModelRow[] {
  const data = isObject(answer) ? answer.data : undefined;
  if (!Array.isArray(data)) throw new MalformedResponseError('the service answered GET /v1/models without a `data` list');
  return data.flatMap((item: unknown) => {
    if (!isObject(item) || typeof item.id !== 'string') return [];
    return [{ id: item.id, ownedBy: typeof item.owned_by === 'string' ? item.owned_by : undefined, created: typeof item.created === 'number' ? item.created : undefined }];
  });
}

/** The table a terminal shows: id, owner and the day it was made (terminal/table.ts). */
function table(rows: ModelRow[], width: number | undefined): string {
  const columns = [{ title: 'MODEL' }, { title: 'OWNED BY' }, { title: 'CREATED' }];
  const cells = rows.map((row) => [row.id, row.ownedBy ?? '', row.created === undefined ? '' : new Date(row.created * 1000).toISOString().slice(0, 10)]);
  return tableText(columns, cells, { width });
}

export async function runModels(factory: Factory, flags: ModelsFlags, signal: AbortSignal): Promise<void> {
  const { io } = factory;
  const settings = await factory.settings(settingFlagsFrom(flags, 'model'));
  if (flags.cached === true) {
    const ids = cachedIds(cacheDir(io.env), settings.baseUrl.value);
    if (ids.length > 0) io.stdout.write(`${ids.join('\n')}\n`);
    return;
  }
  const baseUrl = requireBaseUrl(settings);
  const client = await factory.apiClient(settings);
  let text: string;
  try {
    const response = await client.getEndpoint('models', signal);
    text = (await readUpTo(response.body, MAX_CHAT_ANSWER_BYTES)).text;
    // A proxy's or captive portal's page in place of the list: said as chat and image say it.
    if (isHtmlAnswer(text.trimStart(), response.contentType)) throw htmlPageError(text, client.baseUrlOrigin);
  } catch (error) {
    // A server with no model list: one line that says so (exit 4), not the base-URL hint of a 404.
    if (error instanceof ApiError && (error.status === 404 || error.status === 405)) {
      throw new RejectedError(`the service at ${baseUrl} offers no model list (GET /v1/models)`, {
        status: error.status,
        serviceMessage: error.serviceMessage,
        requestId: error.requestId,
      });
    }
    throw error;
  }
  const answer = parseServiceJson(text, 'a model list');
  const rows = rowsOf(answer);
  keepIds(cacheDir(io.env), baseUrl, rows.map((row) => row.id));
  if (flags.json === true) io.stdout.write(jsonForOutput(answer, io.stdoutIsTTY));
  else if (io.stdoutIsTTY) {
    if (rows.length === 0) io.stderr.write('svc: the service lists no models\n');
    io.stdout.write(table(rows, terminalWidth(io.stdout)));
  }
  else if (rows.length > 0) io.stdout.write(`${rows.map((row) => row.id).join('\n')}\n`);
}
