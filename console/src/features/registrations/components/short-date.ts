/** A registration's date as the report shows it: the day, in Thai or English. */
export const shortDate = (iso: string, language: string) =>
  new Date(iso).toLocaleDateString(language === 'th' ? 'th-TH' : 'en-GB');
