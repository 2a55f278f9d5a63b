/** `data` of `GET /api/site-config`: operator-configured community links and the activity notice. */
export interface SiteConfigData {
  /** The QQ group shown to Chinese users: number, an image (e.g. its QR code) and a join link. */
  qqGroup: { number: string; imageUrl: string; link: string } | null;
  /** The Discord invite shown to English users. */
  discordUrl: string | null;
  /** An activity announced in a modal on the stories screen; null when there is none. */
  activity: { title: string; imageUrl: string; link: string } | null;
}
