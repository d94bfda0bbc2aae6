/**
 * What a chat needs from the disk before anything is read from stdin or sent: the role of
 * --role and the files of -f. Each refusal is exit 2 with nothing sent (an unknown role lists
 * the known ones; a file names itself).
 */
import { describeTotal } from '../../attachments/message.js';
import { readAttachments, type AttachedFile } from '../../attachments/read.js';
import type { IO } from '../../terminal/io.js';
import { roleToUse, type RoleInUse } from '../../roles/fill-role.js';
import type { ChatPlan } from './options.js';

export interface ChatInputs {
  role: RoleInUse | undefined;
  files: AttachedFile[];
}

export function prepareChat(io: IO, plan: ChatPlan): ChatInputs {
  // Its blanks are checked and its system message filled here, before stdin is read.
  const role = roleToUse(io.env, plan.role, plan.vars);
  const files = readAttachments(plan.files ?? [], io.cwd);
  // On a terminal, the size of what goes out (a glob can match more than meant); scripts get quiet.
  if (files.length > 0 && io.stderrIsTTY) io.note(`attached ${describeTotal(files)}`);
  return { role, files };
}
