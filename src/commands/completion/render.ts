import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { renderBash } from './bash.js';
import { renderFish } from './fish.js';
import { completionModel } from './model.js';
import { renderZsh } from './zsh.js';

export function renderCompletion(program: Command, shell: 'bash' | 'zsh' | 'fish'): string {
  const model = completionModel(program);
  return shell === 'bash' ? renderBash(model) : shell === 'zsh' ? renderZsh(model) : renderFish(model);
}
