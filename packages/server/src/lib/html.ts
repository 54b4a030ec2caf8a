/** Text made safe inside HTML, in an element or a quoted attribute (the API reference page, link cards). */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
