/**
 * What the tests that price provider kinds on the sample share: a fake OpenAI-compatible chat server whose
 * answer and token usage each test decides, and the config file naming the fakes as priced systems.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { startHttpServer, type TestServer } from '../../helpers/http-server.js';
import { sendJson } from './context.js';

/** A chat-completions request body as the `openai` kind sends it. */
export interface ChatBody {
  messages: { content: string | { type: string; text?: string; image_url?: { url: string } }[] }[];
  response_format?: unknown;
}

export interface ChatAnswer {
  content: string;
  usage: { prompt_tokens: number; completion_tokens: number };
}

/** A chat server answering every request with `answer(body)` (which may wait, to keep calls in flight). */
export function startChatFake(answer: (body: ChatBody) => ChatAnswer | Promise<ChatAnswer>): Promise<TestServer> {
  return startHttpServer(async (request, response) => {
    const { content, usage } = await answer(JSON.parse(request.body.toString('utf8')) as ChatBody);
    sendJson(response, 200, {
      id: 'x',
      object: 'chat.completion',
      model: 'vision',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage,
    });
  });
}

/** docbench.config.yaml in `dir`: extract and compare, a response cache in `dir/cache`, these systems. */
export async function writePricedConfig(dir: string, systems: Record<string, Record<string, unknown>>): Promise<void> {
  await writeFile(
    path.join(dir, 'docbench.config.yaml'),
    stringify({ endpoints: ['extract', 'compare'], cacheDir: 'cache', systems }),
  );
}
