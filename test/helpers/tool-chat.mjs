// svc itself, from the built tree (dist/), with tools of the test's own in place of MCP servers:
// for the terminal tests of asking about tool calls until svc starts MCP servers of its own.
// Wired to the process as src/cli.ts wires svc (signals become an abort, SIGINT goes through the
// interrupt router), with main()'s openTools seam given these tools: calc.add, text.echo
// (read-only) and text.shout, answered at once. Run: node test/helpers/tool-chat.mjs chat --tools calc ...
import { main } from '../../dist/main.js';
import { InterruptRouter } from '../../dist/terminal/interrupts.js';
import { processIO } from '../../dist/terminal/io.js';

const TOOLS = [
  { server: 'calc', tool: 'add', readOnly: false, description: 'Add two numbers', properties: { a: { type: 'number' }, b: { type: 'number' } }, run: (args) => String(Number(args.a) + Number(args.b)) },
  { server: 'text', tool: 'echo', readOnly: true, description: 'Say the text back', properties: { text: { type: 'string' } }, run: (args) => `echoed: ${args.text}` },
  { server: 'text', tool: 'shout', readOnly: false, description: 'Say the text back in capitals', properties: { text: { type: 'string' } }, run: (args) => String(args.text).toUpperCase() },
];

async function openTools(servers) {
  const mine = TOOLS.filter((tool) => servers.includes(tool.server));
  const byName = new Map(mine.map((tool) => [tool.tool, tool]));
  return {
    definitions: mine.map((tool) => ({ type: 'function', function: { name: tool.tool, description: tool.description, parameters: { type: 'object', properties: tool.properties, required: Object.keys(tool.properties) } } })),
    describe: (name) => {
      const tool = byName.get(name);
      return tool && { server: tool.server, tool: tool.tool, readOnly: tool.readOnly };
    },
    async call(name, argumentsText) {
      const tool = byName.get(name);
      const content = tool ? tool.run(JSON.parse(argumentsText)) : `unknown tool ${name}`;
      return { content, isError: !tool, summary: `${Buffer.byteLength(content)} B · ${content.split('\n')[0]}` };
    },
    async close() {},
  };
}

process.stdout.on('error', () => {});
process.stderr.on('error', () => {});
const controller = new AbortController();
const stop = () => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort();
};
const interrupts = new InterruptRouter(stop);
process.on('SIGINT', () => interrupts.dispatch());
process.on('SIGTERM', stop);
process.on('SIGHUP', stop);
process.exitCode = await main(process.argv.slice(2), processIO(), { signal: controller.signal, interrupts, openTools });
process.exit();
