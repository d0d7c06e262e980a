/** A person's photo, or the first letter of their name in a circle when they have none. */
export function Avatar({ src, name, size }: { src: string | null | undefined; name: string; size?: 'large' }) {
  const className = size ? `avatar avatar-${size}` : 'avatar';
  return src ? (
    <img src={src} alt="" className={className} />
  ) : (
    <span className={className} aria-hidden="true">
      {(name || '?').slice(0, 1).toUpperCase()}
    </span>
  );
}
