/**
 * The one list of link-preview fetchers: the robots chat apps and social sites send to read a
 * link someone posted, so they can draw a card (docs/api.md "Link cards"). Such a request is not a
 * person opening the share: it never counts a view and never sees protected content.
 *
 * Matched case-insensitively anywhere in the User-Agent. iMessage previews announce themselves as
 * "facebookexternalhit" with a Twitterbot token (and Apple's own fetchers as Applebot); WhatsApp and
 * Signal as "WhatsApp"; Mastodon servers as "Mastodon/<version>". Names that in-app browsers also
 * carry (Snapchat, Viber, Instagram) are left out: a person opening the link there must get the file.
 */
const LINK_PREVIEW_AGENTS = [
  'Discordbot',
  'Slackbot', // Slackbot-LinkExpanding
  'Slack-ImgProxy',
  'TelegramBot',
  'WhatsApp',
  'facebookexternalhit',
  'Facebot',
  'Twitterbot',
  'Applebot',
  'LinkedInBot',
  'Mastodon',
  'SkypeUriPreview',
  'MicrosoftPreview',
  'Iframely',
  'Embedly',
  'redditbot',
  'Pinterestbot',
  'vkShare',
  'Mattermost-Bot',
  'ZoomBot',
  'Google-PageRenderer',
  'bitlybot',
];

const PATTERN = new RegExp(
  LINK_PREVIEW_AGENTS.map((name) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|'),
  'i',
);

/** Whether a request's User-Agent names a link-preview fetcher. */
export function isLinkPreviewAgent(userAgent: string | undefined | null): boolean {
  return !!userAgent && PATTERN.test(userAgent);
}
