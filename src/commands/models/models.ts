/**
 * `svc models`: GET /v1/models (chat/model-choice.ts askModels), printed as a table (terminal),
 * ids (pipe) or JSON, and kept in the cache folder for the base URL, where shell completion of -m,
 * the choice of a model when none is set, and /model read it without asking the service.
 */
import { Command } from '@commander-js/extra-typings';
import type { ModelRow } from '../../api/models.js';
import { jsonForOutput } from '../../core/json.js';
import type { Factory } from '../../factory.js';
import { cacheDir } from '../../storage/paths.js';
import { cachedModelIds } from '../../storage/models-cache.js';
import { tableText, terminalWidth } from '../../terminal/table.js';
import type { CommandContext } from '../context.js';
import { addConnectionOptions, settingFlagsFrom } from '../setting-flags.js';

function declareModelsCommand() {
  const command = new Command('models')
    .summary('list the models the service offers')
    .description(
      "Ask the service for its models (GET /v1/models): a table on a terminal, one id a line in a pipe. Each answer is kept in\n" +
        '$XDG_CACHE_HOME/svc/models.json, which shell completion of -m reads (--cached prints it without asking).',
    )
    .option('--json', "print the service's answer as JSON")
    .option('--cached', 'print the ids of the last answer kept, asking nothing');
  return addConnectionOptions(command).addHelpText('after', '\nExamples:\n  $ svc models\n  $ svc models | grep -i mini\n  $ svc models --json | jq -r \'.data[].id\'');
}

/** The values commander collected for `svc models`' flags. */
export type ModelsFlags = ReturnType<ReturnType<typeof declareModelsCommand>['opts']>;

export function modelsCommand(context: CommandContext) {
  return declareModelsCommand().action((flags) => runModels(context.factory, flags, context.signal));
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
    const ids = cachedModelIds(cacheDir(io.env), settings.baseUrl.value);
    if (ids.length > 0) io.stdout.write(`${ids.join('\n')}\n`);
    return;
  }
  const client = await factory.apiClient(settings);
  const { askModels } = await import('../../chat/model-choice.js');
  const asked = await askModels(client, cacheDir(io.env), signal);
  // A server with no model list: one line that says so (exit 4).
  if (asked.kind === 'none') throw asked.error;
  const { answer, rows } = asked.list;
  if (flags.json === true) io.stdout.write(jsonForOutput(answer, io.stdoutIsTTY));
  else if (io.stdoutIsTTY) {
    if (rows.length === 0) io.note('the service lists no models');
    io.stdout.write(table(rows, terminalWidth(io.stdout)));
  }
  else if (rows.length > 0) io.stdout.write(`${rows.map((row) => row.id).join('\n')}\n`);
}
