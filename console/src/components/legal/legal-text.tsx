import { useTranslation } from 'react-i18next';

/** A legal text: its title, the date of its last update, and numbered sections (heading, body). */
export interface LegalText {
  title: string;
  updated: string;
  sections: [heading: string, body: string][];
}

/** Shows a legal text in the console's language, on its page or inside a modal. */
export function LegalTextView({
  text,
  headingLevel = 1,
}: {
  text: Record<'th' | 'en', LegalText>;
  headingLevel?: 1 | 2;
}) {
  const { i18n } = useTranslation();
  const { title, updated, sections } = text[i18n.language === 'th' ? 'th' : 'en'];
  const Title = headingLevel === 1 ? 'h1' : 'h2';
  const Section = headingLevel === 1 ? 'h2' : 'h3';
  return (
    <article className="legal">
      <Title>{title}</Title>
      <p className="legal-updated">{updated}</p>
      <ol>
        {sections.map(([heading, body]) => (
          <li key={heading}>
            <Section>{heading}</Section>
            <p>{body}</p>
          </li>
        ))}
      </ol>
    </article>
  );
}
