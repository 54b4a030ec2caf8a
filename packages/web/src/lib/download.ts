/** Saves text made in the page as a file download (a paste as .md, a ShareX uploader as .sxcu). */
export function downloadText(filename: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the blob after this task; revoking at once could cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Starts the download of a URL the server made for it (a signed file link, a zip stream): the
 * browser saves the answer to disk as it arrives, nothing is held in the page.
 */
export function downloadFromUrl(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
