/** `svc models`: the models the configured service offers (GET /v1/models). */
import { Command } from '@commander-js/extra-typings';
import type { CommandContext } from '../context.js';
import { addConnectionOptions } from '../setting-flags.js';

export function modelsCommand(context: CommandContext) {
  const command = new Command('models')
    .summary('list the models the service offers')
    .description(
      "Ask the service for its models (GET /v1/models): a table on a terminal, one id a line in a pipe. Each answer is kept in\n" +
        '$XDG_CACHE_HOME/svc/models.json, which shell completion of -m reads (--cached prints it without asking).',
    )
    .option('--json', "print the service's answer as JSON")
    .option('--cached', 'print the ids of the last answer kept, asking nothing');
  return addConnectionOptions(command)
    .addHelpText('after', '\nExamples:\n  $ svc models\n  $ svc models | grep -i mini\n  $ svc models --json | jq -r \'.data[].id\'')
    .action(async (flags) => {
      const { runModels } = await import('./run.js');
      await runModels(context.factory, flags, context.signal);
    });
}
