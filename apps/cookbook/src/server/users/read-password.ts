/** A password from the terminal without echo, or the first line of stdin when it is piped. */
import { text } from 'node:stream/consumers';

export async function readPassword(
  prompt: string,
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Promise<string> {
  if (!input.isTTY) return (await text(input)).split(/\r?\n/)[0] ?? '';
  output.write(prompt);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      const onData = (chunk: string) => {
        for (const char of chunk) {
          if (char === '\r' || char === '\n' || char === '\u0004') {
            input.off('data', onData);
            return resolve(typed);
          }
          if (char === '\u0003') {
            input.off('data', onData);
            return reject(new Error('cancelled'));
          }
          if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
          else typed += char;
        }
      };
      input.on('data', onData);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
    output.write('\n');
  }
}
