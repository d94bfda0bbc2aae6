/**
 * `svc models`: GET /v1/models (chat/model-choice.ts askModels), printed as a table (terminal),
 * ids (pipe) or JSON, and kept in the cache folder for the base URL, where shell completion of -m,
 * the choice of a model when none is set, and /model read it without asking the service.
 */
import type { ModelRow } from '../../api/models.js';
import { askModels } from '../../chat/model-choice.js';
import { jsonForOutput } from '../../core/json.js';
import { forOutput } from '../../core/terminal-text.js';
import type { Factory } from '../../factory.js';
import { cacheDir } from '../../settings/paths.js';
import { cachedModelIds } from '../../storage/models-cache.js';
import { settingFlagsFrom } from '../setting-flags.js';

export interface ModelsFlags {
  json?: boolean;
  cached?: boolean;
  baseUrl?: string;
  timeout?: string;
  maxRetries?: string;
}

function table(rows: ModelRow[], clean: (text: string) => string): string {
  const width = Math.max(5, ...rows.map((row) => row.id.length));
  const lines = [`${'MODEL'.padEnd(width)}  OWNED BY          CREATED`];
  for (const row of rows) {
    const created = row.created === undefined ? '' : new Date(row.created * 1000).toISOString().slice(0, 10);
    lines.push(`${clean(row.id).padEnd(width)}  ${clean(row.ownedBy ?? '').padEnd(16)}  ${created}`.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}

export async function runModels(factory: Factory, flags: ModelsFlags, signal: AbortSignal): Promise<void> {
  const { io } = factory;
  const settings = await factory.settings(settingFlagsFrom(flags, 'model'));
  if (flags.cached === true) {
    const ids = cachedModelIds(cacheDir(io.env), settings.baseUrl.value);
    if (ids.length > 0) io.stdout.write(`${ids.join('\n')}\n`);
    return;
  }
  const client = await factory.apiClient(settings);
  const asked = await askModels(client, cacheDir(io.env), signal);
  // A server with no model list: one line that says so (exit 4).
  if (asked.kind === 'none') throw asked.error;
  const { answer, rows } = asked.list;
  if (flags.json === true) io.stdout.write(jsonForOutput(answer, io.stdoutIsTTY));
  else if (io.stdoutIsTTY) io.stdout.write(table(rows, (value) => forOutput(value, true)));
  else if (rows.length > 0) io.stdout.write(`${rows.map((row) => row.id).join('\n')}\n`);
}
