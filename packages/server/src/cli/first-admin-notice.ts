/**
 * What the console shows once, on the first start, when Cubby made the first administrator with a
 * random password: framed, so that it stands out of whatever was printed before it.
 */
export function firstAdminNotice(username: string, password: string, url: string): string {
  const lines = [
    'Cubby created the first administrator account:',
    '',
    `  username: ${username}`,
    `  password: ${password}`,
    '',
    `Sign in at ${url}/admin and change the password`,
    'under Admin → Settings. It is shown only this once.',
  ];
  const width = Math.max(...lines.map((line) => [...line].length));
  const rule = '─'.repeat(width + 2);
  return [
    '',
    `┌${rule}┐`,
    ...lines.map((line) => `│ ${line}${' '.repeat(width - [...line].length)} │`),
    `└${rule}┘`,
    '',
  ].join('\n');
}
