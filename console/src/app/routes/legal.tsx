import { cookie } from '../../components/legal/cookie.ts';
import { LegalTextView } from '../../components/legal/legal-text.tsx';
import { privacy } from '../../components/legal/privacy.ts';
import { terms } from '../../components/legal/terms.ts';

const texts = { terms, privacy, cookie };

/** /terms, /policy and /cookie: the legal texts in the console's language. */
export default function LegalRoute({ text }: { text: keyof typeof texts }) {
  return (
    <div className="card legal-card">
      <LegalTextView text={texts[text]} />
    </div>
  );
}
