/** The role file: Markdown with front matter, read strictly and written so it reads back the same. */
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../src/roles/built-in.js';
import { formatRoleFile, parseRoleFile } from '../../src/roles/role-file.js';

describe('parseRoleFile', () => {
  it('reads the defaults from the front matter and the system message from the body', () => {
    const role = parseRoleFile('r', '---\nmodel: svc-mini\ntemperature: 0.2\n# a comment\nmax_tokens: 50\nstop: ["END", "###"]\nuser: "ann"\n---\n\nYou are brief.\nVery brief.\n');
    expect(role).toEqual({ name: 'r', system: 'You are brief.\nVery brief.', model: 'svc-mini', fields: { temperature: 0.2, max_tokens: 50, stop: ['END', '###'], user: 'ann' } });
  });

  it('takes a file without front matter as all system message', () => {
    expect(parseRoleFile('r', 'Answer in French.\n')).toEqual({ name: 'r', system: 'Answer in French.', model: undefined, fields: {} });
  });

  it.each([
    ['---\ntemprature: 1\n---\nx', /line 2: "temprature" is not a role setting/],
    ['---\ntemperature: 3\n---\nx', /temperature must be a number from 0 to 2; got "3"/],
    ['---\nstop: [1]\n---\nx', /stop must be text, or an array of text/],
    ['---\nstop: ["a", "b", "c", "d", "e"]\n---\nx', /stop has 5 values; the service accepts at most 4/],
    ['---\nmodel: two words\n---\nx', /model must be a model id without spaces/],
    ['---\nmodel: "a\n---\nx', /line 2: the value of model starts like JSON but is not valid JSON/],
    ['---\nmodel: a\nmodel: b\n---\nx', /line 3: model is given twice/],
    ['---\njust words\n---\nx', /line 2 is not "key: value"/],
    ['---\nmodel: a\nYou are...', /never closed/],
  ])('refuses %j, saying where', (text, problem) => {
    expect(() => parseRoleFile('r', text)).toThrow(problem);
  });
});

describe('formatRoleFile', () => {
  it.each([
    { system: 'Plain.', model: undefined, fields: {} },
    { system: 'Multi\nline', model: 'svc-pro', fields: { temperature: 0, stop: '\n\n', user: ' spaced ' } },
    { system: '---\nstarts like front matter', model: undefined, fields: {} },
    { system: 'q', model: undefined, fields: { stop: ['a', 'b'], max_tokens: 5, top_p: 0.5, presence_penalty: -1, frequency_penalty: 2 } },
    ...BUILT_IN_ROLES,
  ])('writes a file that reads back the same: %j', (role) => {
    expect(parseRoleFile('x', formatRoleFile(role))).toEqual({ name: 'x', system: role.system, model: role.model, fields: role.fields });
  });
});
